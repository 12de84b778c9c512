/** SWE-agent `.traj` and mini-swe-agent `.traj.json` trajectories, and their sniffers. */
export { parseSweAgentTrajectory, type TrajectoryOptions } from './trajectory';
export { parseMiniSweAgentTrajectory } from './mini';
export { sniffMiniSweAgentTrajectory, sniffSweAgentTrajectory } from './sniff';
