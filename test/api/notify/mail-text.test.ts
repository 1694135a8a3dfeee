// The reminder mails name each game's edition in the edition's own words (engine wordsOf): a
// Galecrest game is "Winds of Galecrest", never "classic" (the mail once compared the stored
// lower-case id with the schema's upper-case one, and every game read "classic").
import { describe, expect, it } from 'vitest';
import { digestMail, reminderMail, type Waiting } from '../../../functions/api/notify/mail-text.js';
import type { Services } from '../../../functions/api/services.js';
import type { ReminderRecord } from '../../../functions/store/index.js';

// Signing the unsubscribe link needs only the mail key.
const services = { store: { notify: { mailKey: async () => 'test key' } } } as unknown as Services;
const mail = { apiUrl: 'https://api.example.test', webUrl: 'https://play.example.test' };
const rec = { playerId: 'p1', email: 'anne@example.test' } as ReminderRecord;
const now = new Date('2025-01-02T12:00:00Z');
const turn = (gameId: string, edition: Waiting['edition']): Waiting => ({
  gameId,
  edition,
  seat: 1,
  since: '2025-01-01T12:00:00Z',
  deadline: null,
});

describe('reminder mails', () => {
  it('names the edition of each waiting game', async () => {
    const one = await reminderMail(services, mail, rec, turn('g1', 'galecrest'), now);
    expect(one.text).toContain('in a Winds of Galecrest game of Libertalia (seat 2)');
    const digest = await digestMail(services, mail, rec, [turn('g1', 'classic'), turn('g2', 'galecrest')], now);
    expect(digest.text).toContain('- classic, your turn for 24 h: https://play.example.test/#/game/g1');
    expect(digest.text).toContain('- Winds of Galecrest, your turn for 24 h: https://play.example.test/#/game/g2');
  });
});
