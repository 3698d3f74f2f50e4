/**
 * Search behaviour independent of the browser: typos, accents, plurals, title boost, language filter, and the
 * English entries that stand in for missing translations. The typo table runs against the real indexes of
 * the build, so it says what a reader of this site gets.
 */
import { describe, expect, inject, it } from 'vitest';
import { allowedEdits, analyzer, buildIndex, fold, search, toDocs, type HelpLike, type PostLike } from '../src/widget/search-core.ts';
import { STEMMERS } from '../src/widget/stemmers.ts';
import { readJson } from './helpers.ts';

const posts = [
  { id: 'es/config', slug: 'config', lang: 'es', title: 'Configuración del servidor', description: 'Variables de entorno' },
  { id: 'es/notas', slug: 'notas', lang: 'es', title: 'Notas de versión', description: 'Cambios en la configuración' },
  { id: 'en/config', slug: 'config', lang: 'en', title: 'Server configuration', description: 'Environment variables' },
  { id: 'en/backups', slug: 'backups', lang: 'en', title: 'Database backups', description: 'Copies of the database' },
];
const help = [
  { id: 'es/webhooks', slug: 'webhooks', lang: 'es', title: 'Webhooks de agentes', section: 'Agentes', cluster: 'Mensajería' },
];
const index = buildIndex(toDocs(posts, help, 'es'), 'es', STEMMERS.es);

describe('search core', () => {
  it('folds accents and case', () => {
    expect(fold('Configuración')).toBe('configuracion');
    expect(fold('SAÚDE')).toBe('saude');
  });
  it('matches without accents, with a typo, and by prefix', () => {
    expect(search(index, 'configuracion')[0]?.path).toBe('/es/blog/config/');
    expect(search(index, 'confgiuracion').length).toBeGreaterThan(0);
    expect(search(index, 'webhoks')[0]?.path).toBe('/es/help/webhooks/');
    expect(search(index, 'mensaj')[0]?.path).toBe('/es/help/webhooks/');
  });
  it('ranks title matches above body matches', () => {
    const ids = search(index, 'configuracion').map((h) => h.id);
    expect(ids.indexOf('post:es/config')).toBeLessThan(ids.indexOf('post:es/notas'));
  });
  it('searches the requested language, plus English entries it has no translation of', () => {
    // en/config has a Spanish translation: only the Spanish one is searched.
    expect(search(index, 'server environment')).toEqual([]);
    // en/backups has none: it is found, in English, at the Spanish copy of its page.
    expect(search(index, 'backups')).toEqual([
      { id: 'post:en/backups', kind: 'post', title: 'Database backups', hint: 'Copies of the database', path: '/es/blog/backups/', lang: 'en' },
    ]);
  });
  it('analyses words as the language does: stop words dropped, one stem for a word\'s forms, accents or not', () => {
    const pt = analyzer('pt', STEMMERS.pt);
    expect([pt.query('de'), pt.query('Dos'), pt.query('the')]).toEqual([null, null, null]);
    expect(pt.query('cópias')?.stem).toBe(pt.query('copia')?.stem);
    expect(pt.query('segurança')).toEqual(pt.query('seguranca'));
    expect(pt.index('Cópias')).toEqual(expect.arrayContaining(['copias', 'copia', pt.query('copia')!.stem]));
    const en = analyzer('en', STEMMERS.en);
    expect(en.query('installing')?.stem).toBe(en.query('install')?.stem);
    expect(en.query('no')).toEqual({ folded: 'no', stem: 'no' }); // a word a reader may mean is kept
  });
  it('allows no typo in words of three characters or fewer, one at four, two from five', () => {
    expect(allowedEdits('api')).toBe(false);
    expect(allowedEdits('keys')).toBe(1);
    expect(allowedEdits('backp')).toBe(2);
    expect(search(index, 'des')).toEqual([]); // one edit from "del" and "de", but too short for any
  });
});

/**
 * Real typos, as readers type them: a letter left out, one doubled or added, two swapped, a neighbour key,
 * a missing accent, a singular for a plural, a word cut short. [language, query, path the reader wants]; the
 * wanted page must be among the first three results. Tune SEARCH_OPTIONS against this table.
 */
const TYPOS: [string, string, string][] = [
  ['en', 'webhok', '/en/help/agent-webhooks/'],
  ['en', 'webhoks', '/en/help/agent-webhooks/'],
  ['en', 'wehbook', '/en/help/agent-webhooks/'],
  ['en', 'backp', '/en/help/database-and-backups/'],
  ['en', 'bakups', '/en/help/database-and-backups/'],
  ['en', 'helth checks', '/en/help/agent-health-checks/'],
  ['en', 'configuraton', '/en/help/configuration/'],
  ['en', 'instal', '/en/help/install-and-first-start/'],
  ['en', 'rate limts', '/en/help/rate-limits/'],
  ['en', 'databse', '/en/help/database-and-backups/'],
  ['en', 'agnet reports', '/en/help/agent-reports/'],
  ['en', 'rotate kye', '/en/help/key-rotation/'],
  ['en', 'postgress', '/en/blog/backups-and-postgres/'],
  ['es', 'webhok', '/es/help/agent-webhooks/'],
  ['es', 'configuracion', '/es/help/configuration/'],
  ['es', 'copias de seguriad', '/es/help/database-and-backups/'],
  ['es', 'comprobacion de salud', '/es/help/agent-health-checks/'],
  ['es', 'mesajes', '/es/help/agent-messages/'],
  ['es', 'limites', '/es/help/rate-limits/'],
  ['es', 'infromes', '/es/help/agent-reports/'],
  ['es', 'clave api', '/es/help/api-keys/'],
  ['pt', 'saude', '/pt/help/agent-health-checks/'],
  ['pt', 'verificacao', '/pt/help/agent-health-checks/'],
  ['pt', 'chave api', '/pt/help/api-keys/'],
  ['pt', 'relatorios', '/pt/help/agent-reports/'],
  ['pt', 'mensagems', '/pt/help/agent-messages/'],
  ['pt', 'limtes', '/pt/help/rate-limits/'],
  ['pt', 'varaveis', '/pt/help/configuration/'],
  ['pt', 'webhok', '/pt/help/agent-webhooks/'],
  // Not translated into Portuguese: the English article, at its Portuguese address, found by its title
  // or by its section's Portuguese name.
  ['pt', 'backp', '/pt/help/database-and-backups/'],
  ['pt', 'auto-hospedagem operação', '/pt/help/database-and-backups/'],
];

/**
 * The same word in another form, or the reader's word for it: a verb for its noun, an English -ing, a phrase
 * with articles and prepositions, the Portuguese and Spanish names of a backup. [language, query, path]: the
 * wanted page must be among the first three results.
 */
const FORMS: [string, string, string][] = [
  ['pt', 'copia de seguranca', '/pt/help/database-and-backups/'],
  ['pt', 'cópias de segurança', '/pt/help/database-and-backups/'],
  ['pt', 'backup', '/pt/help/database-and-backups/'],
  ['es', 'copia de seguridad', '/es/help/database-and-backups/'],
  ['es', 'backup', '/es/help/database-and-backups/'],
  ['pt', 'configurar', '/pt/help/configuration/'],
  ['es', 'configurar', '/es/help/configuration/'],
  ['en', 'installing', '/en/help/install-and-first-start/'],
  ['en', 'configure', '/en/help/configuration/'],
  ['en', 'rotating keys', '/en/help/key-rotation/'],
];

describe('search over the built indexes', () => {
  const dir = inject('siteDir');
  const built = { posts: readJson<PostLike[]>(dir, 'api/posts.json'), help: readJson<HelpLike[]>(dir, 'api/help.json') };
  const indexes = new Map<string, ReturnType<typeof buildIndex>>((['en', 'es', 'pt'] as const).map((lang) => [lang, buildIndex(toDocs(built.posts, built.help, lang), lang, STEMMERS[lang])]));

  it.each(TYPOS)('%s: “%s” finds %s', (lang, query, path) => {
    const top = search(indexes.get(lang)!, query, 3).map((h) => h.path);
    expect(top).toContain(path);
  });

  it.each(FORMS)('%s: “%s” finds %s', (lang, query, path) => {
    const top = search(indexes.get(lang)!, query, 3).map((h) => h.path);
    expect(top).toContain(path);
  });

  it('looks for the words that say something: "de" neither finds every page nor keeps a phrase from its page', () => {
    expect(search(indexes.get('pt')!, 'copia de seguranca').map((h) => h.path)).toEqual(['/pt/help/database-and-backups/']);
    const stopWords = { en: 'of the', es: 'de la', pt: 'de da' };
    for (const [lang, words] of Object.entries(stopWords)) {
      expect(search(indexes.get(lang)!, words), lang).toEqual([]);
      expect(search(indexes.get(lang)!, 'the of and'), lang).toEqual([]);
      // A word in no title, beside stop words, finds nothing rather than every title with a stop word.
      expect(search(indexes.get(lang)!, `zebra ${words}`), lang).toEqual([]);
    }
  });

  it('names the section of an English article in the reader’s language', () => {
    // Every published help article has its translations: take one Portuguese copy away, as a new English article is.
    const untranslated = built.help.filter((h) => !(h.lang === 'pt' && h.slug === 'database-and-backups'));
    const [hit] = search(buildIndex(toDocs(built.posts, untranslated, 'pt'), 'pt', STEMMERS.pt), 'database backups');
    expect(hit).toMatchObject({ title: 'Database and backups', lang: 'en', hint: 'Auto-hospedagem › Operação' });
  });

  it('finds nothing for words that are in no title', () => {
    for (const lang of ['en', 'es', 'pt']) expect(search(indexes.get(lang)!, 'zebra banana'), lang).toEqual([]);
  });
});
