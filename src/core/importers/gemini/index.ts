/** Gemini CLI chats: the `.jsonl` line parser, the older one-document `.json`, and their sniffers. */
export { createGeminiLineParser, type GeminiParserOptions, type GeminiThreadOption } from './line-parser';
export { parseGeminiChatJson } from './chat-json';
export { sniffGeminiChatJson, sniffGeminiJsonl } from './sniff';
