/**
 * The Snowball stemmers of the site's languages, for code that runs in Node (tests, the benchmark). The widget
 * does not import this: it loads only its page language's stemmer, as /search-stemmer-<lang>.js (bundled from the
 * same modules by src/integrations/rollcall.ts), beside the indexes on first focus.
 */
import { stemmer as en } from '@orama/stemmers/english';
import { stemmer as es } from '@orama/stemmers/spanish';
import { stemmer as pt } from '@orama/stemmers/portuguese';
import type { Stemmer } from './search-core.ts';

/** The module each language's stemmer comes from; rollcall.ts bundles one file per language from it. */
export const STEMMER_MODULES = { en: '@orama/stemmers/english', es: '@orama/stemmers/spanish', pt: '@orama/stemmers/portuguese' } as const;

export const STEMMERS: Record<keyof typeof STEMMER_MODULES, Stemmer> = { en, es, pt };
