/** OpenHands conversation folders (V1, V0) and trajectory files (V0 events in one array), with their sniffers. */
export { parseOpenHandsConversation, type NamedText } from './conversation';
export { sniffOpenHandsFile } from './sniff';
export { parseOpenHandsTrajectory, sniffOpenHandsTrajectory } from './trajectory';
