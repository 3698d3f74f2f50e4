/** Search behaviour independent of the browser: typos, accents, title boost, language filter. */
import { describe, expect, it } from 'vitest';
import { buildIndex, fold, search, toDocs } from '../src/widget/search-core.ts';

const posts = [
  { id: 'es/config', slug: 'config', lang: 'es', title: 'Configuración del servidor', description: 'Variables de entorno' },
  { id: 'es/notas', slug: 'notas', lang: 'es', title: 'Notas de versión', description: 'Cambios en la configuración' },
  { id: 'en/config', slug: 'config', lang: 'en', title: 'Server configuration', description: 'Environment variables' },
];
const help = [
  { id: 'es/webhooks', slug: 'webhooks', lang: 'es', title: 'Webhooks de agentes', section: 'Agentes', cluster: 'Mensajería' },
];
const index = buildIndex(toDocs(posts, help, 'es'));

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
  it('searches only the requested language', () => {
    expect(search(index, 'server')).toEqual([]);
  });
});
