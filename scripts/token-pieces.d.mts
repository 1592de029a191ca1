/** scripts/token-pieces.mjs: the text of src/util/cl100k-pieces.ts, made from the installed gpt-tokenizer. */
export function tokenPiecesModule(): string;
