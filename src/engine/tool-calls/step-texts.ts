/**
 * A recorded call's step as stored: its params and result as JSON text (bounded), and their packed form. One home
 * for both: the recorder writes what `stepTexts` gives, and an import's reader packs ahead with the same functions.
 *
 * Packing ahead (engine/importers/read-ahead.ts): a long import reads and parses its transcript on a second thread,
 * which also packs each call's step as it will be stored (`packStepAhead`: from the call and its outcome alone — the
 * classification, which needs the session's context, stays with the writer). The writer takes a packed column only for the very text it computed
 * itself (`packedFor`: compared whole, never by a hash); any other text is packed where it is written, as always
 * (and so is a call the reader had no time to pack: read-ahead.ts).
 * The stored bytes are a zlib stream of exactly the stored text, whichever thread packed them (the reader packs on
 * native zlib where there is one — another valid stream of the same bytes than fflate's — `packJsonNative`).
 */
import { jsonToText } from '../../core/model';
import { stepOutcome } from '../../core/tool-calls';
import { stepOf } from '../../core/tool-calls/records';
import { packJson, type StoredJson } from '../../storage/sqlite/repos/step-json';
import { parseCall } from './input';

/** The step's params and result as stored (`TooLarge` past `maxChars`, as any step). */
export function stepTexts(
  step: { readonly params: unknown; readonly result: unknown },
  maxChars: number,
): { readonly params: string; readonly result: string } {
  return {
    params: jsonToText(step.params, 'params', maxChars),
    result: jsonToText(step.result, 'result', maxChars),
  };
}

/** One column packed ahead: the text it was packed from, and the bytes `packJson` gave for it. */
export interface PackedText {
  readonly text: string;
  readonly stored: Uint8Array;
}

/** A call's step packed ahead: only the columns `packJson` stores as bytes (a short text is stored as it is). */
export interface PackedStep {
  readonly params?: PackedText;
  readonly result?: PackedText;
}

/**
 * The step `call` would store (its texts: the call and its outcome, `stepOutcome`, whatever the session), packed
 * — or null when there is nothing worth packing (or the call would be refused: the writer says why).
 */
export async function packStepAhead(
  call: unknown,
  maxChars: number,
  pack: (text: string) => StoredJson | Promise<StoredJson> = packJson,
): Promise<PackedStep | null> {
  let texts: { readonly params: string; readonly result: string };
  try {
    const parsed = parseCall(call);
    // Its texts need only the outcome (the status, which needs the whole classification, is not in them).
    const step = stepOf(parsed, { ...stepOutcome(parsed), failed: false });
    texts = stepTexts(step, maxChars);
  } catch {
    return null;
  }
  const params = await pack(texts.params);
  const result = await pack(texts.result);
  if (typeof params === 'string' && typeof result === 'string') return null;
  return {
    ...(typeof params === 'string' ? {} : { params: { text: texts.params, stored: params } }),
    ...(typeof result === 'string' ? {} : { result: { text: texts.result, stored: result } }),
  };
}

/** The bytes packed ahead for exactly `text`, else undefined (the writer packs it). */
export const packedFor = (ahead: PackedText | undefined, text: string): Uint8Array | undefined =>
  ahead !== undefined && ahead.text === text ? ahead.stored : undefined;
