/**
 * The site's own page behaviour, bundled by Astro into one small module (the search box itself is
 * /search-widget.js, which other sites embed too). Everything here is an enhancement: without JavaScript the
 * search button is a link to the search page, the language menu is a plain <details>, code is plain text.
 *
 *  - the header's search button and Ctrl/⌘-K (or "/") open the search dialog; Esc, the close button or a
 *    click outside close it
 *  - an open menu closes on a click elsewhere or Escape
 *  - choosing a language is remembered, so / sends the reader to it next time (see src/pages/index.astro)
 *  - code blocks in the main content get a copy button
 *  - the table of contents marks the section being read
 */
import { LANG_KEY } from '../i18n/langs.ts';

function searchDialog(): void {
  const dialog = document.querySelector<HTMLDialogElement>('dialog[data-search-dialog]');
  if (!dialog || typeof dialog.showModal !== 'function') return;
  const input = dialog.querySelector<HTMLInputElement>('input[name="q"]');
  const open = () => {
    if (dialog.open) return;
    dialog.showModal();
    input?.focus();
    input?.select();
  };
  const mac = /Mac|iPhone|iPad/.test(navigator.platform);
  for (const opener of document.querySelectorAll<HTMLElement>('[data-search-open]')) {
    opener.setAttribute('aria-haspopup', 'dialog');
    opener.setAttribute('role', 'button');
    opener.addEventListener('click', (event) => {
      event.preventDefault();
      open();
    });
    opener.addEventListener('keydown', (event) => {
      // A link answers Enter on its own; as a button it must answer Space too.
      if (event.key === ' ') {
        event.preventDefault();
        open();
      }
    });
    const key = opener.querySelector<HTMLElement>('.rc-key');
    if (key) {
      key.textContent = mac ? '⌘K' : 'Ctrl K';
      key.hidden = false;
    }
  }
  document.addEventListener('keydown', (event) => {
    const target = event.target as HTMLElement;
    const typing = target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
    if ((event.key === 'k' || event.key === 'K') && (event.metaKey || event.ctrlKey) && !event.altKey) {
      event.preventDefault();
      if (dialog.open) dialog.close();
      else open();
    } else if (event.key === '/' && !typing && !dialog.open) {
      event.preventDefault();
      open();
    }
  });
  dialog.querySelector('[data-search-close]')?.addEventListener('click', () => dialog.close());
  // A click on the backdrop lands on the dialog element itself (its content fills the box).
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
  });
}

function menus(): void {
  const all = [...document.querySelectorAll<HTMLDetailsElement>('details[data-menu]')];
  document.addEventListener('click', (event) => {
    for (const menu of all) if (menu.open && !menu.contains(event.target as Node)) menu.open = false;
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    for (const menu of all) {
      if (!menu.open) continue;
      menu.open = false;
      menu.querySelector('summary')?.focus();
    }
  });
}

function rememberLanguage(): void {
  document.addEventListener('click', (event) => {
    const link = (event.target as Element).closest<HTMLElement>('[data-lang-switch]');
    if (!link) return;
    try {
      localStorage.setItem(LANG_KEY, link.dataset.langSwitch!);
    } catch {
      // Storage can be off (private modes); the choice just is not remembered.
    }
  });
}

function copyButtons(): void {
  const main = document.querySelector<HTMLElement>('main');
  if (!main || !navigator.clipboard) return;
  const label = main.dataset.copy ?? 'Copy';
  const done = main.dataset.copied ?? 'Copied';
  for (const pre of main.querySelectorAll('pre')) {
    const wrapper = document.createElement('div');
    wrapper.className = 'code-block';
    pre.replaceWith(wrapper);
    wrapper.append(pre);
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy';
    button.textContent = label;
    button.setAttribute('aria-live', 'polite');
    let timer: ReturnType<typeof setTimeout> | undefined;
    button.addEventListener('click', async () => {
      await navigator.clipboard.writeText((pre.querySelector('code') ?? pre).textContent!.replace(/\n$/, ''));
      button.textContent = done;
      clearTimeout(timer);
      timer = setTimeout(() => (button.textContent = label), 2000);
    });
    wrapper.append(button);
  }
}

function tableOfContents(): void {
  // Help pages carry the table twice (in the flow on narrow screens, as a column on wide ones).
  const links = new Map<Element, HTMLAnchorElement[]>();
  for (const link of document.querySelectorAll<HTMLAnchorElement>('.toc a[href^="#"]')) {
    const heading = document.getElementById(decodeURIComponent(link.hash.slice(1)));
    if (heading) links.set(heading, [...(links.get(heading) ?? []), link]);
  }
  if (!links.size || !('IntersectionObserver' in window)) return;
  const visible = new Set<Element>();
  const headings = [...links.keys()];
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) visible.add(entry.target);
        else visible.delete(entry.target);
      }
      const current = headings.find((h) => visible.has(h));
      if (!current) return;
      for (const [heading, list] of links) {
        for (const link of list) {
          if (heading === current) link.setAttribute('aria-current', 'true');
          else link.removeAttribute('aria-current');
        }
      }
    },
    { rootMargin: '-64px 0px -60% 0px' },
  );
  for (const heading of headings) observer.observe(heading);
}

searchDialog();
menus();
rememberLanguage();
copyButtons();
tableOfContents();
