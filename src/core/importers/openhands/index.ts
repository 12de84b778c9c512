/** OpenHands V1 conversation folders: `parseOpenHandsConversation` and the file sniffer. */
export { parseOpenHandsConversation, type NamedText } from './conversation';
export { sniffOpenHandsFile } from './sniff';
