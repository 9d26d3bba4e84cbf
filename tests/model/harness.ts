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
export interface Pending<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/** Makes a hand-settled promise. */
export function pending<T>(): Pending<T> {
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

type MachineSnap = Snapshot<unknown> & { value: unknown; context: unknown };

/**
 * Replays a model path on a real actor: each event goes through `exec` (which may settle an invoked promise),
 * then the actor's state value and context must equal the model's.
 */
export async function replay<TEvent extends EventObject>(
  path: TestPath<MachineSnap, TEvent>,
  actor: AnyActorRef,
  exec: (event: TEvent) => Promise<void> | void,
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
}

type StateConfig = { invoke?: unknown; on?: Record<string, unknown>; states?: Record<string, StateConfig> };

function stripInvokes(state: StateConfig): StateConfig {
  const { invoke, states, ...rest } = state;
  const out: StateConfig = { ...rest };
  if (states) out.states = Object.fromEntries(Object.entries(states).map(([k, v]) => [k, stripInvokes(v)]));
  if (invoke) {
    const list = (Array.isArray(invoke) ? invoke : [invoke]) as Array<{
      id?: string;
      onDone?: unknown;
      onError?: unknown;
    }>;
    const on: Record<string, unknown> = { ...(state.on ?? {}) };
    for (const inv of list) {
      if (!inv.id) throw new Error('model tests need an explicit invoke id');
      if (inv.onDone) on[`xstate.done.actor.${inv.id}`] = inv.onDone;
      if (inv.onError) on[`xstate.error.actor.${inv.id}`] = inv.onError;
    }
    out.on = on;
  }
  return out;
}

/**
 * The same machine with each invoke replaced by transitions on its done/error events. xstate/graph refuses
 * invocations, so the model walks this twin while the real machine (with its invoke) is the system under test.
 */
export function modelOf<T extends AnyStateMachine>(machine: T): T {
  const config = stripInvokes(machine.config as StateConfig);
  return createMachine(config as never, machine.implementations as never) as unknown as T;
}
