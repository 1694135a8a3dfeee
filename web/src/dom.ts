// A very small DOM helper: h('button', { onclick, class }, 'text') builds elements, and
// render(root, ...) patches the page towards them instead of redrawing it: elements that stay
// (matched by tag, and by data-key where given) are kept and updated in place, so focus,
// scroll positions, open <details> and live-region announcements survive every poll.

type Child = Node | string | number | null | undefined | false | Child[];
type Attrs = Record<string, unknown>;

const HANDLERS = ['onclick', 'oninput', 'onchange', 'onsubmit', 'ontoggle', 'onkeydown'] as const;
type Handlers = Partial<Record<(typeof HANDLERS)[number], unknown>>;

export function h(tag: string, attrs: Attrs | null = null, ...children: Child[]): HTMLElement {
  return build(document.createElement(tag), attrs, children);
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element (the drawn table: island, cards, tracks), patched like any other. */
export function s(tag: string, attrs: Attrs | null = null, ...children: Child[]): SVGElement {
  return build(document.createElementNS(SVG_NS, tag) as SVGElement, attrs, children);
}

function build<E extends Element>(el: E, attrs: Attrs | null, children: Child[]): E {
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') (el as unknown as Handlers)[k as keyof Handlers] = v;
    else if (k === 'class') el.setAttribute('class', String(v));
    else if (k === 'value' && (el instanceof HTMLInputElement || el instanceof HTMLSelectElement)) el.value = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  if (el instanceof HTMLSelectElement && attrs && 'value' in attrs) el.value = String(attrs.value);
  return el;
}

/** Inline SVG from markup written in this code (never from data): icons. */
export function svg(markup: string, label: string): HTMLElement {
  const span = document.createElement('span');
  span.className = 'icon';
  span.setAttribute('role', 'img');
  span.setAttribute('aria-label', label);
  span.innerHTML = markup;
  return span;
}

function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

function flatten(children: Child[], out: Node[] = []): Node[] {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) flatten(c, out);
    else out.push(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return out;
}

const keyOf = (n: Node) => (n instanceof Element ? (n.getAttribute('data-key') ?? undefined) : undefined);

function sameKind(a: Node, b: Node): boolean {
  if (a.nodeType !== b.nodeType) return false;
  if (a instanceof Element && b instanceof Element) return a.tagName === b.tagName && a.namespaceURI === b.namespaceURI;
  return true;
}

/** Makes `old` look like `next` (same kind), keeping `old` itself. */
function patch(old: Node, next: Node): void {
  if (!(old instanceof Element) || !(next instanceof Element)) {
    if (old.nodeValue !== next.nodeValue) old.nodeValue = next.nodeValue;
    return;
  }
  for (const a of [...old.attributes]) {
    // An open <details> is the reader's choice: a redraw keeps it.
    if (!next.hasAttribute(a.name) && !(a.name === 'open' && old.tagName === 'DETAILS')) old.removeAttribute(a.name);
  }
  for (const a of next.attributes) if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
  for (const k of HANDLERS) (old as unknown as Handlers)[k] = (next as unknown as Handlers)[k] ?? null;
  if (old instanceof HTMLSelectElement && next instanceof HTMLSelectElement) {
    patchChildren(old, [...next.childNodes]);
    if (old.value !== next.value) old.value = next.value;
    return;
  }
  if (old instanceof HTMLInputElement && next instanceof HTMLInputElement) {
    if (old.value !== next.value && (document.activeElement !== old || old.type === 'range')) old.value = next.value;
    return;
  }
  if (old.tagName === 'SPAN' && old.classList.contains('icon')) {
    if (old.innerHTML !== next.innerHTML) old.innerHTML = next.innerHTML;
    return;
  }
  patchChildren(old, [...next.childNodes]);
}

function patchChildren(parent: Node, next: Node[]): void {
  const keyed = new Map<string, Node>();
  for (const c of parent.childNodes) {
    const k = keyOf(c);
    if (k !== undefined) keyed.set(k, c);
  }
  let cursor: Node | null = parent.firstChild;
  for (const n of next) {
    const k = keyOf(n);
    let match: Node | null = null;
    if (k !== undefined) {
      const o = keyed.get(k);
      if (o && sameKind(o, n)) {
        match = o;
        keyed.delete(k);
      }
    } else if (cursor && keyOf(cursor) === undefined && sameKind(cursor, n)) match = cursor;
    if (match) {
      if (match === cursor) cursor = cursor.nextSibling;
      else parent.insertBefore(match, cursor);
      patch(match, n);
    } else parent.insertBefore(n, cursor);
  }
  while (cursor) {
    const nx: Node | null = cursor.nextSibling;
    parent.removeChild(cursor);
    cursor = nx;
  }
}

/**
 * Patches root's content towards `content`. Focus stays where it was; if that element went
 * away (a card left the hand, a prompt was answered), it moves to the next thing to do (a
 * prompt's first option, a playable card) or else to the status line, never to <body>.
 */
export function render(root: HTMLElement, ...content: Child[]): void {
  const active = document.activeElement as HTMLElement | null;
  const hadFocus = !!active && active !== document.body && root.contains(active);
  patchChildren(root, flatten(content));
  const now = document.activeElement as HTMLButtonElement | null;
  if (!hadFocus || (now && root.contains(now) && !now.disabled)) return;
  const next =
    root.querySelector<HTMLElement>('[data-focus-next]:not([aria-disabled="true"])') ??
    root.querySelector<HTMLElement>('[data-focus-home]');
  next?.focus();
}
