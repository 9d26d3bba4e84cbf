import { expect } from 'vitest';
import {
  type AnyActorRef,
  type AnyStateMachine,
  createMachine,
  type EventObject,
  fromPromise,
  type Snapshot,
} from 'xstate';
import type { TestPath } from 'xstate/graph';

/** A promise the test settles by hand, standing in for a network call. */
interface Pending<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/** Makes a hand-settled promise. */
function pending<T>(): Pending<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets settled promises deliver their done/error events to the actor. */
export function flush(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Stands in for every promise actor of a machine: each run waits, under its invoke id, until the test settles it
 * with `resolve` or `reject` (which also let the actor take the done/error event). Provide `actor` for each src.
 */
export class Deferreds {
  private readonly calls = new Map<string, Pending<unknown> & { input: unknown }>();
  readonly actor = fromPromise<unknown, unknown>(({ input, self }) => {
    const call = pending<unknown>();
    this.calls.set(self.id, { ...call, input });
    return call.promise;
  });

  /** Whether the invocation `id` is running and unsettled. */
  has(id: string): boolean {
    return this.calls.has(id);
  }

  /** The input the invocation `id` was started with. */
  input(id: string): unknown {
    return this.take(id, false).input;
  }

  async resolve(id: string, output: unknown): Promise<void> {
    this.take(id, true).resolve(output);
    await flush();
  }

  async reject(id: string, error: unknown): Promise<void> {
    this.take(id, true).reject(error);
    await flush();
  }

  private take(id: string, remove: boolean) {
    const call = this.calls.get(id);
    if (!call) throw new Error(`no pending ${id} invocation`);
    if (remove) this.calls.delete(id);
    return call;
  }
}

/** A clock (createActor's `clock`) whose timers fire only when the test says which one, by its delay in ms. */
export class ManualClock {
  private readonly timers = new Map<number, { fn: () => void; ms: number }>();
  private nextId = 0;
  setTimeout(fn: () => void, ms: number): number {
    this.nextId += 1;
    this.timers.set(this.nextId, { fn, ms });
    return this.nextId;
  }
  clearTimeout(id: number): void {
    this.timers.delete(id);
  }
  /** Fires the first pending timer of `ms`; throws when there is none. */
  fire(ms: number): void {
    for (const [id, timer] of this.timers) {
      if (timer.ms !== ms) continue;
      this.timers.delete(id);
      timer.fn();
      return;
    }
    throw new Error(`no timer of ${ms} ms is pending`);
  }
}

type MachineSnap = Snapshot<unknown> & {
  value: unknown;
  context: unknown;
  matches: (value: never) => boolean;
};

/**
 * What a path must end with, written by hand for each state a path can end in: the first entry whose state the
 * final snapshot matches gives the context it must hold (a partial object, compared with toMatchObject) or a
 * check of its own. A path ending in a state with no entry fails, so a new state needs a written outcome.
 */
export type Outcomes<TContext> = ReadonlyArray<
  readonly [state: unknown, expected: Partial<TContext> | ((context: TContext) => void)]
>;

function expectOutcome<TContext>(snapshot: MachineSnap, outcomes: Outcomes<TContext>): void {
  const hit = outcomes.find(([state]) => snapshot.matches(state as never));
  if (!hit) throw new Error(`no expected outcome written for state ${JSON.stringify(snapshot.value)}`);
  const [, expected] = hit;
  if (typeof expected === 'function') expected(snapshot.context as TContext);
  else expect(snapshot.context).toMatchObject(expected);
}

/**
 * Replays a model path on a real actor: each event goes through `exec` (which may settle an invoked promise or
 * fire a timer), then the actor's state value and context must equal the model's; at the end the actor must
 * hold the hand-written outcome of the state it ended in.
 */
export async function replay<TEvent extends EventObject, TContext>(
  path: TestPath<MachineSnap, TEvent>,
  actor: AnyActorRef,
  exec: (event: TEvent) => Promise<void> | void,
  outcomes: Outcomes<TContext>,
): Promise<void> {
  const types = new Set(path.steps.map((s) => s.event.type));
  const events = Object.fromEntries(
    [...types].map((type) => [
      type,
      async (step: { event: TEvent }) => {
        if (step.event.type === 'xstate.init') return;
        await exec(step.event);
      },
    ]),
  );
  await path.test({
    events: events as never,
    states: {
      '*': (state) => {
        const real = actor.getSnapshot() as MachineSnap;
        expect(real.value).toEqual(state.value);
        expect(real.context).toEqual(state.context);
      },
    },
  });
  expectOutcome(actor.getSnapshot() as MachineSnap, outcomes);
}

/**
 * How a model event reaches the live actor: `xstate.done.actor.<id>` and `xstate.error.actor.<id>` settle the
 * deferred invocation `<id>`, `xstate.after.<delay>.…` fires the clock's timer of that delay's ms, and any other
 * event is sent. Each ends by letting settled promises deliver their events.
 */
export function executor(
  actor: AnyActorRef,
  deferreds: Deferreds = new Deferreds(),
  timers?: { clock: ManualClock; delays: Record<string, number> },
) {
  return async (event: EventObject & { output?: unknown; error?: unknown }): Promise<void> => {
    const done = /^xstate\.done\.actor\.(.+)$/.exec(event.type);
    const failed = /^xstate\.error\.actor\.(.+)$/.exec(event.type);
    const after = /^xstate\.after\.(\w+)\./.exec(event.type);
    if (done) await deferreds.resolve(done[1]!, event.output);
    else if (failed) await deferreds.reject(failed[1]!, event.error);
    else if (after) {
      if (!timers) throw new Error(`${event.type}: no clock given`);
      const ms = timers.delays[after[1]!];
      if (ms === undefined) throw new Error(`${event.type}: no ms given for delay ${after[1]}`);
      timers.clock.fire(ms);
      await flush();
    } else {
      actor.send(event);
      await flush();
    }
  };
}

type StateConfig = {
  invoke?: unknown;
  after?: Record<string, unknown>;
  on?: Record<string, unknown>;
  states?: Record<string, StateConfig>;
};

function testable(state: StateConfig, path: string[]): StateConfig {
  const { invoke, after, states, ...rest } = state;
  const out: StateConfig = { ...rest };
  if (states)
    out.states = Object.fromEntries(Object.entries(states).map(([k, v]) => [k, testable(v, [...path, k])]));
  const on: Record<string, unknown> = { ...(state.on ?? {}) };
  if (invoke) {
    const list = (Array.isArray(invoke) ? invoke : [invoke]) as Array<{
      id?: string;
      onDone?: unknown;
      onError?: unknown;
    }>;
    for (const inv of list) {
      if (!inv.id) throw new Error('model tests need an explicit invoke id');
      if (inv.onDone) on[`xstate.done.actor.${inv.id}`] = inv.onDone;
      if (inv.onError) on[`xstate.error.actor.${inv.id}`] = inv.onError;
    }
  }
  // The event XState raises for a named delay: xstate.after.<delay>.<state path>.
  for (const [delay, target] of Object.entries(after ?? {}))
    on[`xstate.after.${delay}.${path.join('.')}`] = target;
  if (invoke || after) out.on = on;
  return out;
}

/**
 * The same machine with each invoke replaced by transitions on its done/error events, and each named delayed
 * transition by one on its after event. xstate/graph refuses invocations and delays, so the model walks this twin
 * while the real machine (with its invokes and timers) is the system under test.
 */
export function modelOf<T extends AnyStateMachine>(machine: T): T {
  const config = machine.config as StateConfig & { id?: string };
  const twin = testable(config, [config.id ?? '(machine)']);
  return createMachine(twin as never, machine.implementations as never) as unknown as T;
}
