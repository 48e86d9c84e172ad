// Scroll a part of a page into view and move focus to its heading (a heading with tabIndex -1):
// the Settings index's links and the Authentication card's "Check your API key" use it.

export function goToSection(id: string): void {
  const heading = document.getElementById(id)?.querySelector<HTMLElement>('h2, h3');
  heading?.scrollIntoView({ block: 'start' });
  heading?.focus();
}
