/**
 * A reader of RFC 1035 §5 master files, as BIND writes and reads them: comments, parentheses over
 * several lines, quoted strings with \" \\ and \DDD escapes, $ORIGIN and $TTL, owners left blank
 * (the previous one), `@`, relative names, TTLs with units (1h30m), TTL and class in either order,
 * and RFC 3597 generic RDATA (`TYPE65401 \# …`, the panel's own export of ANAME). What it cannot
 * read becomes a refused line with its reason, never a guess.
 */

/** A word of an entry: its text with escapes resolved to bytes when quoted, and whether it was. */
export interface Word {
  text: string;
  /** The bytes a quoted or escaped word stands for (TXT, CAA need them exact). */
  bytes: Buffer;
  quoted: boolean;
}

/** One record as the file states it: the owner fully qualified, lower case, without the final dot. */
export interface ParsedRecord {
  line: number;
  source: string;
  owner: string;
  /** null: the file gave none and had no $TTL nor an earlier TTL. */
  ttl: number | null;
  type: string;
  rdata: Word[];
  origin: string;
}

export interface Refusal {
  line: number;
  source: string;
  key: string;
  params?: Record<string, string | number>;
}

interface Entry {
  line: number;
  source: string;
  words: Word[];
  /** The entry began with a blank: its owner is the previous entry's. */
  blankOwner: boolean;
}

class SyntaxProblem extends Error {}

/** Splits the text into entries (one per record or directive), joining lines inside parentheses. */
export function entries(text: string): { entries: Entry[]; refused: Refusal[] } {
  const found: Entry[] = [];
  const refused: Refusal[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let current: Entry | null = null;
  let depth = 0;
  for (let n = 0; n < lines.length; n++) {
    const raw = lines[n];
    if (current === null) current = { line: n + 1, source: raw.trim(), words: [], blankOwner: /^[ \t]/.test(raw) };
    try {
      depth = readLine(raw, current.words, depth);
    } catch (error) {
      if (!(error instanceof SyntaxProblem)) throw error;
      refused.push({ line: current.line, source: current.source, key: 'dns.import_syntax' });
      current = null;
      depth = 0;
      continue;
    }
    if (depth > 0) continue;
    if (current.words.length > 0) found.push(current);
    current = null;
  }
  if (current && depth > 0) refused.push({ line: current.line, source: current.source, key: 'dns.import_syntax' });
  return { entries: found, refused };
}

/** Reads the words of one physical line into `words`; answers the parenthesis depth after it. */
function readLine(raw: string, words: Word[], depth: number): number {
  let i = 0;
  while (i < raw.length) {
    const c = raw[i];
    if (c === ' ' || c === '\t') i++;
    else if (c === ';') break;
    else if (c === '(') {
      depth++;
      i++;
    } else if (c === ')') {
      if (depth === 0) throw new SyntaxProblem();
      depth--;
      i++;
    } else if (c === '"') {
      const bytes: number[] = [];
      i++;
      for (;;) {
        if (i >= raw.length) throw new SyntaxProblem();
        if (raw[i] === '"') break;
        i = readChar(raw, i, bytes);
      }
      i++;
      const buffer = Buffer.from(bytes);
      words.push({ text: buffer.toString('utf8'), bytes: buffer, quoted: true });
    } else {
      const bytes: number[] = [];
      let escaped = false;
      while (i < raw.length && !' \t;()"'.includes(raw[i])) {
        if (raw[i] === '\\') escaped = true;
        i = readChar(raw, i, bytes);
      }
      const buffer = Buffer.from(bytes);
      // An escaped unquoted word keeps its escapes in `text` only for names, where they are refused.
      words.push({ text: escaped ? `\\${buffer.toString('latin1')}` : buffer.toString('utf8'), bytes: buffer, quoted: false });
    }
  }
  return depth;
}

/** One character or escape at `i` appended as bytes; answers the index after it. */
function readChar(raw: string, i: number, bytes: number[]): number {
  if (raw[i] !== '\\') {
    // ASCII is its own byte: a buffer per character made reading a large file slow.
    const code = raw.charCodeAt(i);
    if (code < 0x80) bytes.push(code);
    else bytes.push(...Buffer.from(raw[i], 'utf8'));
    return i + 1;
  }
  const digits = /^\d{3}/.exec(raw.slice(i + 1, i + 4));
  if (digits) {
    const value = Number(digits[0]);
    if (value > 255) throw new SyntaxProblem();
    bytes.push(value);
    return i + 4;
  }
  if (i + 1 >= raw.length) throw new SyntaxProblem();
  bytes.push(...Buffer.from(raw[i + 1], 'utf8'));
  return i + 2;
}

const UNIT: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/** A TTL in seconds ("3600", "1h30m", "2D"), or null when the word is not one. */
export function readTtl(word: string): number | null {
  if (/^\d+$/.test(word)) return Number(word);
  if (!/^(\d+[smhdw])+$/i.test(word)) return null;
  let total = 0;
  for (const [, n, unit] of word.toLowerCase().matchAll(/(\d+)([smhdw])/g)) total += Number(n) * UNIT[unit];
  return total;
}

/** The largest TTL RFC 2181 §8 allows. */
const MAX_TTL = 2 ** 31 - 1;
const CLASSES = new Set(['IN', 'CH', 'HS', 'CS']);
const TYPE_WORD = /^(?:[A-Z][A-Z0-9-]*|TYPE\d+)$/;

/** A name of the file made absolute: `@` is the origin, a name without a final dot is relative to it. */
export function qualify(word: Word, origin: string): string {
  if (word.quoted || word.text.startsWith('\\')) throw new SyntaxProblem();
  const text = word.text.toLowerCase();
  if (text === '@') return origin;
  if (text.endsWith('.')) return text.slice(0, -1);
  return origin === '' ? text : `${text}.${origin}`;
}

/**
 * The records of a master file, each with its owner and TTL resolved, and the entries refused.
 * `zone` is the starting $ORIGIN, as a zone file loaded for that zone has.
 */
export function parseMasterFile(text: string, zone: string): { records: ParsedRecord[]; refused: Refusal[] } {
  const { entries: list, refused } = entries(text);
  const records: ParsedRecord[] = [];
  let origin = zone.toLowerCase();
  let defaultTtl: number | null = null;
  let lastTtl: number | null = null;
  let lastOwner: string | null = null;
  for (const entry of list) {
    const refuse = (key: string, params?: Refusal['params']) => refused.push({ line: entry.line, source: entry.source, key, params });
    try {
      const [first, ...rest] = entry.words;
      if (!entry.blankOwner && !first.quoted && first.text.startsWith('$')) {
        const directive = first.text.toUpperCase();
        if (directive === '$ORIGIN' && rest.length === 1) origin = qualify(rest[0], origin);
        else if (directive === '$TTL' && rest.length === 1 && readTtl(rest[0].text) !== null) defaultTtl = readTtl(rest[0].text);
        else if (directive === '$ORIGIN' || directive === '$TTL') refuse('dns.import_syntax');
        else refuse('dns.import_directive', { directive: first.text });
        continue;
      }
      let words = entry.words;
      let owner: string | null = lastOwner;
      if (!entry.blankOwner) {
        owner = qualify(words[0], origin);
        words = words.slice(1);
      }
      if (owner === null) throw new SyntaxProblem();
      lastOwner = owner;
      let ttl: number | null = null;
      let klass: string | null = null;
      while (words.length > 0 && !words[0].quoted) {
        const word = words[0].text;
        if (ttl === null && readTtl(word) !== null) ttl = readTtl(word);
        else if (klass === null && CLASSES.has(word.toUpperCase())) klass = word.toUpperCase();
        else break;
        words = words.slice(1);
      }
      const type = words[0]?.quoted === false ? words[0].text.toUpperCase() : '';
      if (!TYPE_WORD.test(type)) throw new SyntaxProblem();
      if (klass !== null && klass !== 'IN') {
        refuse('dns.import_class', { class: klass });
        continue;
      }
      if (ttl !== null && ttl > MAX_TTL) {
        refuse('dns.import_ttl');
        continue;
      }
      if (ttl !== null) lastTtl = ttl;
      records.push({
        line: entry.line,
        source: entry.source,
        owner,
        ttl: ttl ?? defaultTtl ?? lastTtl,
        type,
        rdata: words.slice(1),
        origin,
      });
    } catch (error) {
      if (!(error instanceof SyntaxProblem)) throw error;
      refuse('dns.import_syntax');
    }
  }
  refused.sort((a, b) => a.line - b.line);
  return { records, refused };
}

export { SyntaxProblem };
