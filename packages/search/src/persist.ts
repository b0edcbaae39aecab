/*
 * The state of an object graph (the search index, and the read model's state around it) as a
 * stream of bytes and back, without naming a single field: an object is written as its own
 * fields, recursively into every field that is itself an instance of a class (a posting list,
 * a sorted order, the vocabulary), and read back into a freshly constructed instance of the
 * same classes, whose constructors have made the comparators and other closures. So the
 * engine's layout can change without this file: what does not round-trip is found by
 * snapshotFingerprint() (snapshot-probe.ts), which compares a probe index's answers before and
 * after. docs/search.md ("Restarts: the model's snapshot") says why this format.
 *
 * Values are written by kind, chosen per value (persist-write.ts; read back by
 * persist-read.ts; the kinds and the byte-level writer and reader in persist-bytes.ts): typed
 * arrays as their raw bytes (most of the engine: its per-document columns, its text, its
 * posting lists); arrays of typed arrays as their lengths and bytes; arrays of strings as
 * lengths and text, Latin-1 when it fits (a repeated string once, then by number: tags' ids
 * come back interned); arrays of numbers as Float64; arrays of plain objects of one shape by
 * column; arrays of arrays flattened; Maps and Sets as their keys and values; anything else by
 * v8.serialize. A field holding instances of classes inside an array or a map (a scratch pool)
 * is not written: the fresh instance keeps its own. JS private fields (`#name`) are never
 * written (a view kept for speed).
 */

export type { Sink, Source } from './persist-bytes.ts';
export { readState } from './persist-read.ts';
export { writeState } from './persist-write.ts';
