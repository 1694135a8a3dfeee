// The rules engine's public surface. Pure: no I/O, no clock, no AWS, no GraphQL.
export { apply, applyInPlace, awaitedSeats } from './core.js';
export { createGame } from './setup.js';
export { CURRENT_RNG_VERSION } from './rng.js';
export { view, viewEvent, summary } from './view.js';
export type { GameView, SeatView, MeView, PromptView } from './view.js';
export { botCommand, botRandom, BOT_KINDS } from './bots/index.js';
export type { BotKind, Random } from './bots/index.js';
export { EngineError } from './errors.js';
export type { EngineErrorCode } from './errors.js';
export { editionOf, isEditionId } from './editions/index.js';
export type * from './types.js';
export { playScenario } from './scenario.js';
export type { Scenario, ScenarioResult } from './scenario.js';
export { playBotGame } from './bots/simulate.js';
export { characters, editionShape } from './catalog.js';
export type { CharacterInfo, EditionShape } from './catalog.js';
// The editions' rule data that callers show (api/words.ts: the loot glossary, tie-break marks).
export { BOOTY_BAG, BOOTY_VALUE, MAP_SET } from './editions/classic/booty.js';
export { COLOURS, tieBreak } from './editions/classic/tiebreak.js';
export { LOOT_BAG, playableBoards } from './editions/galecrest/loot.js';
export { REPUTATION_DOUBLOONS } from './editions/galecrest/reputation.js';
