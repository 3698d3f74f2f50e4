/**
 * Writes N blog posts and N help articles per language into a content folder: valid front matter, and
 * bodies of realistic length and shape (headings, lists, code, links, a table) so MDX does real work.
 * Deterministic (seeded), so two runs build the same site.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const LANGS = ['en', 'es', 'pt'] as const;
const WORDS = {
  en: 'agent report health check key team standup webhook message server token rotate backup schema deploy queue retry organization member invite plan board task'.split(' '),
  es: 'agente informe salud comprobación clave equipo reunión webhook mensaje servidor token copia configuración despliegue cola reintento organización miembro invitación plan tablero tarea'.split(' '),
  pt: 'agente relatório saúde verificação chave equipe reunião webhook mensagem servidor token cópia configuração implantação fila tentativa organização membro convite plano quadro tarefa'.split(' '),
};
const SECTIONS = ['Getting started', 'Agents', 'API', 'Command line', 'Self-hosting', 'Integrations'];
const CLUSTERS = ['Basics', 'Advanced', 'Reference', 'Troubleshooting'];

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function sentence(words: readonly string[], next: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(words[Math.floor(next() * words.length)]!);
  const text = out.join(' ');
  return text[0]!.toUpperCase() + text.slice(1) + '.';
}

function body(lang: (typeof LANGS)[number], next: () => number, i: number): string {
  const w = WORDS[lang];
  const para = () => Array.from({ length: 4 }, () => sentence(w, next, 8 + Math.floor(next() * 8))).join(' ');
  return [
    para(),
    `## ${sentence(w, next, 3)}`,
    para(),
    `- ${sentence(w, next, 5)}\n- ${sentence(w, next, 5)}\n- **${sentence(w, next, 3)}**`,
    '```sh\ncurl -H "X-API-KEY: $KEY" "$URL/v1/agent-health/"\n```',
    `## ${sentence(w, next, 3)}`,
    para(),
    `| a | b |\n|---|---|\n| ${i} | \`${w[i % w.length]}\` |`,
    `See [the help center](/${lang}/help/).`,
  ].join('\n\n');
}

export async function generateContent(root: string, perLanguage: number): Promise<void> {
  for (const lang of LANGS) {
    const blogDir = join(root, 'blog', lang);
    const helpDir = join(root, 'help', lang);
    await mkdir(blogDir, { recursive: true });
    await mkdir(helpDir, { recursive: true });
    const writes: Promise<void>[] = [];
    for (let i = 0; i < perLanguage; i++) {
      const next = rng(i * 7919 + lang.charCodeAt(0));
      const w = WORDS[lang];
      const day = new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString();
      const tags = [w[i % w.length], w[(i * 3) % w.length]];
      writes.push(
        writeFile(
          join(blogDir, `post-${i}.mdx`),
          `---\ntitle: "${sentence(w, next, 5)}"\ndescription: "${sentence(w, next, 12)}"\npubDate: ${day}\ntags: [${tags.join(', ')}]\n---\n${body(lang, next, i)}\n`,
        ),
        writeFile(
          join(helpDir, `article-${i}.mdx`),
          `---\ntitle: "${sentence(w, next, 4)}"\ntype: guide\nsection: ${SECTIONS[i % SECTIONS.length]}\ncluster: ${CLUSTERS[i % CLUSTERS.length]}\nplatforms: [linux, macos]\nfeature_area: ${w[i % w.length]}\npriority: ${i % 10}\n---\n${body(lang, next, i)}\n`,
        ),
      );
    }
    await Promise.all(writes);
  }
}
