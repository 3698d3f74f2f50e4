/**
 * search-widget.js: the site's search box and the embeddable widget, one bundle (built by
 * src/integrations/rollcall.ts with esbuild).
 *
 * On the site, it upgrades every `form[data-rollcall-search]` (a plain GET form that works without
 * JavaScript) into a WAI-ARIA 1.2 combobox with a listbox popup:
 *   - input: role=combobox, aria-expanded, aria-controls, aria-autocomplete=list, aria-activedescendant
 *   - popup: role=listbox with role=option children; the active option has aria-selected=true
 *   - keys: ArrowDown/ArrowUp move (and open), Enter follows the active option, Escape closes (or clears),
 *     Home/End stay in the text box as usual
 *   - a polite live region announces the number of results
 *   - a query that finds nothing says so under the box and offers the help center
 *   - on the search page (/<lang>/search/?q=…, the form marked `data-search-page`) the results are listed in
 *     the page itself, in place of the notice that search needs JavaScript and the list of every article
 *   - inside a <dialog> (the site's header search), Escape closes the dialog
 *
 * Elsewhere (embedded with <script src=".../search-widget.js" data-lang="es">), it inserts such a form
 * right before its own script tag, or into the element matched by data-target, and reads the indexes from
 * the site the script came from. Indexes are fetched on first focus, not on page load.
 */
import { buildIndex, search, toDocs, type Hit, type HelpLike, type PostLike, type Stemmer } from './search-core.ts';
import { fill, WIDGET_STRINGS, type WidgetLang, type WidgetStrings } from './strings.ts';

const script = document.currentScript as HTMLScriptElement | null;
/** Site root the script was served from; indexes and result links are resolved against it. */
const base = new URL('.', script?.src || location.href);
let counter = 0;

type Index = ReturnType<typeof buildIndex>;
const indexes = new Map<string, Promise<Index>>();

function loadIndex(lang: string): Promise<Index> {
  let index = indexes.get(lang);
  if (!index) {
    const get = (path: string) =>
      fetch(new URL(path, base)).then((r) => {
        if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
        return r.json();
      });
    // The language's stemmer is a module of its own (about 2 KB gzip), loaded with the indexes rather than
    // carried by every page that shows a search box. Without it (a host that lacks the file, a policy that
    // refuses modules) words are matched as written: search loses word forms, not its results.
    const stemmer = import(new URL(`search-stemmer-${lang}.js`, base).href).then(
      (module: { stemmer: Stemmer }) => module.stemmer,
      (): Stemmer => (word) => word,
    );
    index = Promise.all([get('api/posts.json'), get('api/help.json'), stemmer]).then(([posts, help, stem]) =>
      buildIndex(toDocs(posts as PostLike[], help as HelpLike[], lang), lang, stem),
    );
    // A failed fetch should be retried on the next focus, not cached forever.
    index.catch(() => indexes.delete(lang));
    indexes.set(lang, index);
  }
  return index;
}

function pickLang(...candidates: (string | null | undefined)[]): WidgetLang {
  for (const c of candidates) {
    const l = c?.slice(0, 2).toLowerCase();
    if (l === 'en' || l === 'es' || l === 'pt') return l;
  }
  return 'en';
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text = ''): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

/** The no-JavaScript form the site renders, for pages that do not have one. */
function createForm(lang: WidgetLang, s: WidgetStrings): HTMLFormElement {
  const id = `rc-search-${++counter}`;
  const form = el('form', { role: 'search', method: 'get', action: new URL(`${lang}/search/`, base).href, 'data-lang': lang, class: 'rc-search' });
  form.append(el('label', { for: id }, s.label));
  const row = el('div', { class: 'search-row' });
  row.append(el('input', { id, name: 'q', type: 'search', autocomplete: 'off', placeholder: s.placeholder }), el('button', { type: 'submit' }, s.button));
  form.append(row);
  return form;
}

function enhance(form: HTMLFormElement, embedded: boolean): void {
  const found = form.querySelector<HTMLInputElement>('input[name="q"]');
  if (!found || form.dataset.enhanced) return;
  const input: HTMLInputElement = found; // a non-null binding the event handlers below can close over
  form.dataset.enhanced = 'true';
  const lang = pickLang(form.dataset.lang, script?.dataset.lang, document.documentElement.lang);
  const s = WIDGET_STRINGS[lang];
  const id = input.id || `rc-search-${++counter}`;
  input.id = id;

  const listbox = el('ul', { id: `${id}-listbox`, role: 'listbox', class: 'rc-listbox', 'aria-label': s.label });
  listbox.hidden = true;
  // Not part of the listbox (which may hold only options): a message and a way on when nothing matched.
  const empty = el('div', { class: 'rc-empty' });
  empty.hidden = true;
  const status = el('div', { role: 'status', 'aria-live': 'polite', class: 'sr-only' });
  form.append(listbox, empty, status);
  for (const [k, v] of Object.entries({
    role: 'combobox', 'aria-autocomplete': 'list', 'aria-expanded': 'false', 'aria-controls': listbox.id,
  })) input.setAttribute(k, v);

  let hits: Hit[] = [];
  let active = -1;
  let seq = 0;
  const href = (hit: Hit) => (embedded ? new URL(hit.path.slice(1), base).href : hit.path);
  const helpHref = embedded ? new URL(`${lang}/help/`, base).href : `/${lang}/help/`;
  const dialog = form.closest('dialog');

  function setOpen(open: boolean) {
    listbox.hidden = !open;
    input.setAttribute('aria-expanded', String(open));
    if (!open) setActive(-1);
  }

  function close() {
    setOpen(false);
    empty.hidden = true;
  }

  function setActive(i: number) {
    const options = listbox.children;
    if (active >= 0 && options[active]) options[active]!.setAttribute('aria-selected', 'false');
    active = i;
    const option = options[i];
    if (option) {
      option.setAttribute('aria-selected', 'true');
      input.setAttribute('aria-activedescendant', option.id);
      option.scrollIntoView({ block: 'nearest' });
    } else {
      input.removeAttribute('aria-activedescendant');
    }
  }

  function render(query: string) {
    listbox.replaceChildren(
      ...hits.map((hit, i) => {
        const option = el('li', { id: `${id}-opt-${i}`, role: 'option', 'aria-selected': 'false', class: 'rc-option', 'data-href': href(hit) });
        const { title, badge, hint } = hitContent(hit, lang, s);
        option.append(title, ...(badge ? [' ', badge] : []), hint);
        return option;
      }),
    );
    active = -1;
    input.removeAttribute('aria-activedescendant');
    setOpen(hits.length > 0);
    empty.replaceChildren(...(hits.length ? [] : noResults(query, helpHref, s)));
    empty.hidden = hits.length > 0;
    status.textContent = hits.length === 0 ? s.none : hits.length === 1 ? s.one : fill(s.many, { n: hits.length });
  }

  async function update() {
    const query = input.value;
    const mine = ++seq;
    if (!query.trim()) {
      hits = [];
      listbox.replaceChildren();
      close();
      status.textContent = '';
      return;
    }
    try {
      const index = await loadIndex(lang);
      if (mine !== seq) return; // a newer keystroke already answered
      hits = search(index, query);
      render(query);
    } catch {
      // Without the indexes the form still submits to the no-JavaScript search page.
    }
  }

  function go(i: number) {
    const url = hits[i] && href(hits[i]!);
    if (url) location.href = url;
  }

  input.addEventListener('focus', () => void loadIndex(lang).catch(() => {}), { once: true });
  input.addEventListener('input', () => void update());
  input.addEventListener('keydown', (event) => {
    const n = hits.length;
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (listbox.hidden) {
          if (n) setOpen(true);
          else void update();
        }
        if (n) setActive((active + 1) % n);
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (listbox.hidden && n) setOpen(true);
        if (n) setActive(active <= 0 ? n - 1 : active - 1);
        break;
      case 'Enter':
        // With an active option Enter follows it; otherwise the form submits to the search page.
        if (!listbox.hidden && active >= 0) {
          event.preventDefault();
          go(active);
        }
        break;
      case 'Escape':
        if (dialog) {
          // A search field would clear itself on Escape and keep the dialog open: close the dialog instead.
          event.preventDefault();
          dialog.close();
          break;
        }
        if (!listbox.hidden || !empty.hidden) {
          event.preventDefault();
          close();
        } else if (input.value) {
          event.preventDefault();
          input.value = '';
          void update();
        }
        break;
    }
  });
  // mousedown, not click: keeps focus in the input until the navigation starts.
  listbox.addEventListener('mousedown', (event) => {
    const option = (event.target as Element).closest('[role="option"]');
    if (!option) return;
    event.preventDefault();
    go([...listbox.children].indexOf(option));
  });
  // Close when focus leaves the form, not the box: the "browse the help center" link must stay reachable.
  form.addEventListener('focusout', (event) => {
    if (!form.contains(event.relatedTarget as Node | null)) close();
  });
  input.addEventListener('focus', () => {
    if (hits.length) setOpen(true);
  });

  // The search page (/<lang>/search/?q=…): search works, so the notice saying it needs JavaScript goes, and
  // the submitted query's results go into the page.
  const results = embedded || !('searchPage' in form.dataset) ? null : document.querySelector<HTMLElement>('[data-search-results]');
  if (!results) return;
  for (const notice of document.querySelectorAll<HTMLElement>('[data-search-nojs]')) notice.hidden = true;
  const q = new URLSearchParams(location.search).get('q');
  if (q?.trim()) {
    input.value = q;
    void loadIndex(lang).then((index) => renderPage(results, q, search(index, q, 50), lang, s, helpHref));
  }
}

/**
 * Title, then kind and section or description. An English entry standing in for a missing translation is marked
 * as the site's lists mark it (src/lib/markup.ts): its English words carry lang="en" (the title, and a post's
 * description; a help article's section and cluster are named in the page's language), and a visible badge in
 * the page's language follows the title.
 */
function hitContent(hit: Hit, lang: WidgetLang, s: WidgetStrings): { title: HTMLElement; badge: HTMLElement | null; hint: HTMLElement } {
  const english = hit.lang !== lang;
  const title = el('span', english ? { lang: hit.lang } : {}, hit.title);
  const badge = english ? el('span', { class: 'badge rc-lang', 'data-in-english': '' }, s.inEnglish) : null;
  const hint = el('small', {}, `${hit.kind === 'post' ? s.post : s.help} · `);
  hint.append(english && hit.kind === 'post' ? el('span', { lang: hit.lang }, hit.hint) : hit.hint);
  return { title, badge, hint };
}

function noResults(query: string, helpHref: string, s: WidgetStrings): HTMLElement[] {
  const more = el('p');
  more.append(el('a', { href: helpHref }, s.browseHelp));
  return [el('p', {}, fill(s.noneFor, { q: query.trim() })), more];
}

function renderPage(container: HTMLElement, query: string, hits: Hit[], lang: WidgetLang, s: WidgetStrings, helpHref: string): void {
  const heading = el('h2', { id: 'search-results-heading' }, fill(s.resultsFor, { q: query.trim() }));
  const body: HTMLElement[] = [heading];
  if (hits.length) {
    const list = el('ul', { class: 'results-list' });
    for (const hit of hits) {
      const { title, badge, hint } = hitContent(hit, lang, s);
      const link = el('a', badge ? { href: hit.path, hreflang: hit.lang } : { href: hit.path });
      link.append(title);
      const item = el('li');
      item.append(link, ...(badge ? [' ', badge] : []), hint);
      list.append(item);
    }
    body.push(el('p', { class: 'meta' }, hits.length === 1 ? s.one : fill(s.many, { n: hits.length })), list);
  } else {
    body.push(...noResults(query, helpHref, s));
  }
  container.replaceChildren(...body);
  container.hidden = false;
}

/**
 * Minimal styles for the embedded form: the host page has none of ours. Scoped to .rc-search so the
 * host's own styles and ours do not fight; the site's stylesheet covers the non-embedded case.
 */
const EMBED_CSS =
  '.rc-search{position:relative;font:inherit;max-width:40rem}.rc-search .search-row{display:flex;gap:.5rem}' +
  '.rc-search input{flex:1;font:inherit;padding:.4rem}.rc-search .rc-listbox{position:absolute;z-index:9999;left:0;right:0;' +
  'margin:.25rem 0 0;padding:0;list-style:none;background:#fff;color:#111;border:1px solid #ccc;max-height:24rem;overflow:auto}' +
  '.rc-search .rc-option{padding:.5rem .75rem;cursor:pointer}.rc-search .rc-option small{display:block;color:#555}' +
  '.rc-search .rc-option[aria-selected=true]{background:#e8f0fb;outline:2px solid #0b5cad;outline-offset:-2px}' +
  '.rc-search .rc-empty{position:absolute;z-index:9999;left:0;right:0;margin:.25rem 0 0;padding:0 .75rem;background:#fff;color:#111;border:1px solid #ccc}' +
  '.rc-search .rc-empty a{color:#0b5cad}.rc-search [hidden]{display:none}' +
  '.rc-search .rc-lang{display:inline-block;font-size:.75em;font-weight:600;padding:0 .5em;border:1px solid #ccc;border-radius:1em;background:#f4f4f4}' +
  '.rc-search .sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}';

function init(): void {
  const forms = document.querySelectorAll<HTMLFormElement>('form[data-rollcall-search]');
  if (forms.length) {
    forms.forEach((form) => enhance(form, false));
    return;
  }
  // Embedded on someone else's page.
  const lang = pickLang(script?.dataset.lang, document.documentElement.lang);
  const form = createForm(lang, WIDGET_STRINGS[lang]);
  document.head.append(el('style', {}, EMBED_CSS));
  const target = script?.dataset.target ? document.querySelector(script.dataset.target) : null;
  if (target) target.append(form);
  else if (script?.parentNode && script.parentNode !== document.head) script.before(form);
  else document.body.prepend(form);
  enhance(form, true);
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
else init();
