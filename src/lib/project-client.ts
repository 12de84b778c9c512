/**
 * The project folder methods of the client, listed explicitly so a method added to ProjectApi but not here
 * fails to compile. The README's API reference documents it.
 */
import type { BrainApi, ProjectApi } from '../worker/protocol';

type Caller = <K extends keyof BrainApi>(
  name: K,
) => (...args: Parameters<BrainApi[K]>) => ReturnType<BrainApi[K]>;

export function projectClient(call: Caller): ProjectApi {
  return {
    openProject: call('openProject'),
    closeProject: call('closeProject'),
    projectInfo: call('projectInfo'),
    listProjects: call('listProjects'),
    deleteProject: call('deleteProject'),
    createAgentFolder: call('createAgentFolder'),
    listAgentFiles: call('listAgentFiles'),
    readAgentFile: call('readAgentFile'),
    writeAgentFile: call('writeAgentFile'),
    appendJsonl: call('appendJsonl'),
    readJsonlTail: call('readJsonlTail'),
    listSkills: call('listSkills'),
    readSkill: call('readSkill'),
    saveSkill: call('saveSkill'),
    listOtherAgentMemory: call('listOtherAgentMemory'),
    listProjectFiles: call('listProjectFiles'),
    readProjectFile: call('readProjectFile'),
    readProjectBytes: call('readProjectBytes'),
    writeProjectFile: call('writeProjectFile'),
    deleteProjectFile: call('deleteProjectFile'),
    importFolderFiles: call('importFolderFiles'),
    exportProjectZip: call('exportProjectZip'),
    importProjectZip: call('importProjectZip'),
    sessionProject: call('sessionProject'),
    confirmSessionProject: call('confirmSessionProject'),
    planRestore: call('planRestore'),
    restoreCheckpoints: call('restoreCheckpoints'),
  };
}
