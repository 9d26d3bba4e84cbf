import { expect } from 'vitest';
import {
  type AnyActorRef,
  type AnyStateMachine,
  createMachine,
  type EventObject,
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
