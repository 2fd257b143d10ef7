import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { PROJECT_ROOT } from '../../paths.ts';

/**
 * The ISO 20022 message definitions' published XML schemas, shipped unchanged in `schemas/`
 * (its README says where each came from), and the check of a document against one of them.
 * xmllint (libxml2) runs as WebAssembly in a worker thread: nothing is downloaded, and a large
 * report does not hold up the event loop.
 */

/** The messages a schema is shipped for. */
export const SHIPPED_SCHEMAS = [
  'pain.001.001.03',
  'camt.053.001.02',
  'camt.053.001.03',
  'camt.053.001.04',
  'camt.053.001.08',
  'camt.054.001.02',
  'camt.054.001.04',
  'camt.054.001.08',
] as const;
export type SchemaMessage = (typeof SHIPPED_SCHEMAS)[number];

/** From the project root, so the sources and the compiled build/ read the same files. */
const SCHEMA_DIR = join(PROJECT_ROOT, 'src/outside/bank/schemas');

const texts = new Map<SchemaMessage, string>();
const schemaText = (message: SchemaMessage): string => {
  let text = texts.get(message);
  if (text === undefined) texts.set(message, (text = readFileSync(join(SCHEMA_DIR, `${message}.xsd`), 'utf8')));
  return text;
};

export const isShipped = (message: string): message is SchemaMessage => (SHIPPED_SCHEMAS as readonly string[]).includes(message);

/** One way a document breaks its schema: the line (1 is the first) when xmllint names one, and why. */
export interface SchemaError {
  line: number | null;
  message: string;
}

/**
 * WebAssembly memory for one check, in 64 KiB pages (256 MiB at most). Streaming keeps a report's
 * tree out of memory, so this is the schema's and the reader's, not the file's size.
 */
const MAX_MEMORY_PAGES = 4096;

/**
 * The ways `xml` breaks the schema of `message`, at most `limit` of them, in document order;
 * empty when it is valid. Names in the message's own namespace lose their `{urn:…}` prefix.
 */
export async function schemaErrors(xml: string, message: SchemaMessage, limit = 20): Promise<SchemaError[]> {
  let output: string;
  try {
    const result = await validateXML({
      xml: [{ fileName: 'report.xml', contents: xml }],
      schema: [{ fileName: `${message}.xsd`, contents: schemaText(message) }],
      stream: true,
      maxMemoryPages: MAX_MEMORY_PAGES,
    });
    if (result.valid) return [];
    output = result.rawOutput;
  } catch (e) {
    // xmllint could not read the document to its end (not well-formed): its words are the error's.
    if (typeof (e as { code?: unknown }).code !== 'number') throw e;
    output = (e as Error).message;
  }
  const ns = `{urn:iso:std:iso:20022:tech:xsd:${message}}`;
  const errors = output
    .split('\n')
    .map((raw) => /^report\.xml:(\d+): (.*)$/.exec(raw.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ line: Number(m[1]), message: m[2]!.replace(/^.*?(?:validity|parser) error : /, '').replaceAll(ns, '').trim() }));
  // xmllint said the file is not valid but named no line: its words as they are.
  return (errors.length > 0 ? errors : [{ line: null, message: output.trim() || 'not valid' }]).slice(0, limit);
}
