// The retried run, started a little before its wait ends (docs/retry-policy.md, "The retry
// lifecycle", step 9): pi-agent-core, pi-ai and the HTTP client build the request while the wait
// still runs, the HTTP layer holds it (HttpFactsSource.holdNext) and the run's events are held
// back; when the wait ends the request is sent first and the events follow. Withdrawn before then
// (a cancel, a quit, another model), nothing of the run is sent, shown or stored. The RetryController
// asks for one per wait through its host; AgentSession passes every agent event through intercept().
import type { AgentEvent } from '@mariozechner/pi-agent-core';
import type { AgentPort } from './ports';
import type { HeldSend } from './retry/provider-facts';

/**
 * How long before the deadline the run starts. Building the request takes about 2 ms, more the first
 * time or on a loaded machine; what is set in this last stretch (a new key) may reach only the next request.
 */
export const PRELAUNCH_LEAD_MS = 50;

/** One wait's retried run, as the RetryController sees it. */
export interface PreparedRetry {
  /**
   * The wait is over: send the held request, then deliver the held events. Settles like the run
   * (RetryHost.continueAgent); undefined when the run was not started, and the caller starts it.
   */
  release(): Promise<void> | undefined;
  /** The wait ended otherwise, or what the request was built from changed: nothing of the run is kept. */
  withdraw(): void;
}

export interface PrelaunchParts {
  agent: AgentPort;
  /** Hold the next provider request until released (the HTTP layer). */
  holdNextRequest: () => HeldSend;
  /** Hand a held event to the session, as if it had just happened. */
  deliver: (event: AgentEvent) => void;
  /** How long before the deadline the run is built (tests widen it); PRELAUNCH_LEAD_MS by default. */
  leadMs?: number;
}

interface Launch {
  state: 'scheduled' | 'holding' | 'releasing' | 'released' | 'withdrawn';
  send?: HeldSend;
  run?: Promise<void>;
  /** agent.continue() was called: the run exists, or will once the agent is built (DeferredAgent). */
  continued: boolean;
  events: AgentEvent[];
}

export class RetryPrelaunch {
  /** The run being held, or a withdrawn one whose end has not come yet. */
  private launch: Launch | undefined;

  constructor(private readonly parts: PrelaunchParts) {}

  /** A run started ahead of its deadline is held, or settling after a withdrawal: the session is not streaming. */
  get active(): boolean {
    return this.launch !== undefined && this.launch.state !== 'releasing';
  }

  /** A withdrawn run has not settled yet: the agent streams, but nothing of it counts. */
  get withdrawing(): boolean {
    return this.launch?.state === 'withdrawn';
  }

  /** While a withdrawn run settles: resolves once it has (a new run can start); else undefined. */
  settled(): Promise<void> | undefined {
    return this.withdrawing ? this.parts.agent.waitForIdle() : undefined;
  }

  /** The retried run of a wait of `delayMs`: it starts the lead (PRELAUNCH_LEAD_MS) before the end. */
  schedule(delayMs: number): PreparedRetry {
    const launch: Launch = { state: 'scheduled', continued: false, events: [] };
    const lead = this.parts.leadMs ?? PRELAUNCH_LEAD_MS;
    const timer = delayMs > lead ? setTimeout(() => this.start(launch), delayMs - lead) : null;
    const stop = () => {
      if (timer) clearTimeout(timer);
    };
    return {
      release: () => {
        stop();
        return this.release(launch);
      },
      withdraw: () => {
        stop();
        this.withdraw(launch);
      },
    };
  }

  /**
   * Every agent event passes here first: true when it belongs to a held run (kept for release) or
   * to a withdrawn one (dropped; at its end its aborted reply leaves the runtime context). A
   * withdrawn run whose Agent was still being built when it was aborted starts only now: each of its
   * events aborts it again, so its request is never sent.
   */
  intercept(event: AgentEvent): boolean {
    const launch = this.launch;
    if (!launch) return false;
    if (launch.state === 'holding' || launch.state === 'releasing') {
      launch.events.push(event);
      return true;
    }
    if (event.type === 'agent_end') this.forget(launch, event.messages);
    else this.parts.agent.abort();
    return true;
  }

  private start(launch: Launch): void {
    if (launch.state !== 'scheduled' || this.launch) return;
    launch.state = 'holding';
    launch.send = this.parts.holdNextRequest();
    this.launch = launch;
    const { agent } = this.parts;
    launch.run = agent.waitForIdle().then(() => {
      if (launch.state === 'withdrawn') return undefined;
      launch.continued = true;
      return agent.continue();
    });
    // A run that cannot start is reported at release, like RetryHost.continueAgent's rejection; withdrawn,
    // one that never started (or failed before its first event) has nothing to settle.
    launch.run
      .catch(() => undefined)
      .then(() => this.launch === launch && launch.state === 'withdrawn' && this.forget(launch, []));
  }

  private release(launch: Launch): Promise<void> | undefined {
    if (launch.state !== 'holding') {
      launch.state = 'released';
      return undefined;
    }
    launch.state = 'releasing';
    launch.send?.release();
    // The events follow the request, which Node's HTTP client writes on the next tick; later events queue behind them.
    setImmediate(() => {
      for (let event = launch.events.shift(); event; event = launch.events.shift()) this.parts.deliver(event);
      launch.state = 'released';
      this.launch = undefined;
    });
    return launch.run;
  }

  private withdraw(launch: Launch): void {
    if (launch.state === 'releasing' || launch.state === 'released') return;
    const holding = launch.state === 'holding';
    launch.state = 'withdrawn';
    if (!holding) return;
    launch.send?.cancel();
    // Not begun (the agent was still busy): nothing runs, so nothing has to settle.
    if (!launch.continued) return this.forget(launch, []);
    const ended = launch.events.find((event) => event.type === 'agent_end');
    launch.events = [];
    if (ended?.type === 'agent_end') this.forget(launch, ended.messages);
    else this.parts.agent.abort();
  }

  /** The withdrawn run is over: what it added to the runtime context goes. */
  private forget(launch: Launch, added: readonly object[]): void {
    if (this.launch === launch) this.launch = undefined;
    const { state } = this.parts.agent;
    state.messages = state.messages.filter((message) => !added.includes(message));
  }
}
