/**
 * The two browser types the API names for values it only passes through: a picked folder's handle (opened by the
 * engine in the worker) and a file's contents. The app, the lib and the engine compile with the DOM's own
 * declarations, which these merge into unchanged; `src/core` compiles without the DOM (its tsconfig), where they
 * stay opaque — so nothing in core can use them beyond passing them on.
 */
interface FileSystemDirectoryHandle {
  readonly name: string;
}

interface Blob {
  readonly size: number;
}
