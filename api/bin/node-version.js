// The Node.js versions Rollcall runs on, checked before any TypeScript file is loaded: an older Node would fail
// with ERR_UNKNOWN_FILE_EXTENSION ".ts" (no type stripping) or deep inside undici. Plain JavaScript that any Node
// since 12 can parse. The one statement of the range is `engines.node` in the repository's package.json.
// `node api/bin/node-version.js` exits 1 with the message when this Node is too old (.ci/run uses it).
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT_PACKAGE = fileURLToPath(new URL('../../package.json', import.meta.url));

/** `engines.node` of the root package.json: `^22.19.0 || >=23.8.0`. */
export function supportedRange() {
  return JSON.parse(fs.readFileSync(ROOT_PACKAGE, 'utf8')).engines.node;
}

const parse = (version) => version.replace(/^v/, '').split('.').map(Number);
const atLeast = (v, min) => v[0] !== min[0] ? v[0] > min[0] : v[1] !== min[1] ? v[1] > min[1] : (v[2] || 0) >= (min[2] || 0);

/** Whether `version` satisfies a range of `^X.Y.Z` and `>=X.Y.Z` parts joined by `||` (the only forms used). */
export function satisfies(version, range) {
  const v = parse(version);
  return range.split('||').some((part) => {
    const [, operator, bound] = /^\s*(\^|>=)\s*v?([\d.]+)\s*$/.exec(part) || [];
    if (!operator) throw new Error(`engines.node: unsupported range part "${part.trim()}"`);
    const min = parse(bound);
    return atLeast(v, min) && (operator === '>=' || v[0] === min[0]);
  });
}

/** The lowest version the range admits, as people say it: `22.19`. */
export function minimumVersion(range) {
  const lowest = range.split('||').map((part) => parse(part.replace(/[^\d.]/g, ''))).sort((a, b) => (atLeast(a, b) ? 1 : -1))[0];
  return `${lowest[0]}.${lowest[1]}`;
}

/** Null when this Node can run Rollcall, else the one line that says what is needed and how to get it. */
export function unsupportedNodeMessage(version = process.versions.node, range = supportedRange()) {
  if (satisfies(version, range)) return null;
  return (
    `rollcall: Node.js ${minimumVersion(range)} or later is needed (${range}); this is ${version}. ` +
    'Install Node.js 24 LTS from https://nodejs.org/ or run `nvm install` in the repository (it reads .nvmrc).'
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  const message = unsupportedNodeMessage();
  if (message) {
    process.stderr.write(`${message}\n`);
    process.exit(1);
  }
  process.stdout.write(`node ${process.versions.node} satisfies ${supportedRange()}\n`);
}
