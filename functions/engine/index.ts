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
export { isEditionId } from './editions/index.js';
export type * from './types.js';
export { playScenario } from './scenario.js';
export type { Scenario, ScenarioResult } from './scenario.js';
export { playBotGame } from './bots/simulate.js';
export { characters, editionShape } from './catalog.js';
export type { CharacterInfo, EditionShape } from './catalog.js';
// What a person is told about an edition (the API's view: editions/words.ts), and the English
// those words and the view's own sentences share.
export { editionIds, wordsOf } from './editions/index.js';
export type { EditionWords, EventData, LootEntry, PlayedCard, RankFacts, SeatNames } from './editions/words.js';
export {
  cap,
  NEUTRAL_SEAT,
  num,
  plural,
  poss,
  possLower,
  reasonWords,
  seatColour,
  signed,
  verb,
} from './editions/words.js';
export { lobbyView } from './lobby.js';
