// The mail links' routes: `/unsubscribe` (RFC 8058 one-click: a POST turns reminders off) and
// `/reminders/confirm`. A GET only shows a page with a button that POSTs: mail scanners that
// fetch every link change nothing. A token that does not verify is refused (403 INVALID_LINK).
import { createContext, admit } from '../context.js';
import { ApiError, restError } from '../errors.js';
import type { Services } from '../services.js';
import { type LinkPurpose, verifyLink } from './mail-links.js';
import { followLink } from './reminders.js';

/** What http/rest.ts hands over and answers (its own RestRequest and Page have these shapes). */
interface LinkRequest {
  method: string;
  query: Record<string, string | undefined>;
  address?: string | null;
}
interface Page {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export const MAIL_ROUTES: Record<string, LinkPurpose> = {
  '/unsubscribe': 'unsubscribe',
  '/reminders/confirm': 'confirm',
};

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (status: number, title: string, body: string): Page => ({
  status,
  headers: {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
  },
  body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title></head><body><h1>${esc(title)}</h1>${body}</body></html>`,
});

const WORDS = {
  unsubscribe: { ask: 'Stop turn reminders?', button: 'Stop e-mail reminders', done: 'Reminders are off' },
  confirm: { ask: 'Confirm this address?', button: 'Confirm the address', done: 'Address confirmed' },
};

export async function mailRoute(services: Services, req: LinkRequest, path: string): Promise<Page> {
  const purpose = MAIL_ROUTES[path];
  const post = req.method === 'POST';
  if (!post && req.method !== 'GET' && req.method !== 'HEAD')
    return { ...page(405, 'Method not allowed', ''), headers: { allow: 'GET, HEAD, POST' } };
  try {
    const ctx = await createContext(services, {}, req.address ?? null);
    admit(ctx, post ? 'write' : 'read');
    const token = req.query.token ?? '';
    const claims = await verifyLink(services, token, purpose);
    if (!claims) throw new ApiError('INVALID_LINK', 'this link is not valid (cut short, or not ours)');
    const w = WORDS[purpose];
    if (!post)
      return page(
        200,
        w.ask,
        `<form method="post" action="?token=${esc(token)}"><button type="submit">${esc(w.button)}</button></form>`,
      );
    if ((await followLink(services, claims)) === 'stale')
      return page(409, 'This link is out of date', '<p>The address changed since it was sent.</p>');
    return page(200, w.done, '<p>You can change this in the game\u2019s settings.</p>');
  } catch (e) {
    const err = restError(e);
    const code = e instanceof ApiError ? e.code : 'INTERNAL_SERVER_ERROR';
    return page(
      err.status,
      code === 'INVALID_LINK' ? 'This link is not valid' : 'Something went wrong',
      `<p>${esc(code)}</p>`,
    );
  }
}
