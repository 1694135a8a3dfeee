// Scenario files: a game set-up plus a list of commands, played to the next decision.
// Rules questions, bug reports and our own rule tests are written in this format.
import { applyInPlace } from './core.js';
import { EngineError } from './errors.js';
import { createGame } from './setup.js';
import type { Command, GameEvent, GameOptions, GameState } from './types.js';
import { summary } from './view.js';

export interface Scenario extends GameOptions {
  commands: Command[];
}

export type ScenarioResult =
  | { summary: ReturnType<typeof summary>; state: GameState; events: GameEvent[] }
  | { error: { code: string; message: string; command: Command | null } };

/**
 * Plays a scenario. Events are the full (unredacted) log, set-up included. A scenario without
 * `rngVersion` is played with version 1 (the old 32-bit seed fold): every scenario written or
 * exported before the field existed says nothing, and must replay as it did. Exports made since
 * (Game.scenario) always carry the field.
 */
export function playScenario(sc: Scenario): ScenarioResult {
  let g: GameState;
  const events: GameEvent[] = [];
  try {
    g = createGame({ ...sc, rngVersion: sc?.rngVersion ?? 1 }, events);
  } catch (e) {
    if (e instanceof EngineError) return { error: { code: e.code, message: e.message, command: null } };
    throw e;
  }
  const commands = Array.isArray(sc.commands) ? sc.commands : [];
  for (let i = 0; i < commands.length; i++) {
    try {
      applyInPlace(g, commands[i], events);
    } catch (e) {
      if (e instanceof EngineError) {
        return { error: { code: e.code, message: `command ${i}: ${e.message}`, command: commands[i] } };
      }
      throw e;
    }
  }
  return { summary: summary(g), state: g, events };
}
