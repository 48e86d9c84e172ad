// Page object for the question a resolute:// link asks before it acts (docs/hosts.md, "Deep
// links"): the MCP server it would add, shown verbatim — command, each argument, env names — with
// Cancel and Add, or why the link is refused. Specs make one with `new LinkDialog(page)`.
import type { Locator, Page } from '@playwright/test';

export class LinkDialog {
  readonly root: Locator;
  readonly command: Locator;
  /** Each argument in its own box. */
  readonly args: Locator;
  readonly env: Locator;
  readonly refused: Locator;
  readonly cancel: Locator;
  readonly add: Locator;

  constructor(page: Page) {
    this.root = page.getByTestId('link-dialog');
    this.command = page.getByTestId('link-command');
    this.args = page.getByTestId('link-args').locator('code');
    this.env = page.getByTestId('link-env');
    this.refused = page.getByTestId('link-refused');
    this.cancel = page.getByTestId('link-cancel');
    this.add = page.getByTestId('link-add');
  }
}
