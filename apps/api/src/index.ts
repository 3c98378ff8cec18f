// @guildhall/api: the app, for whoever runs it from outside this package (scripts, e2e, the web app's
// tests): build it in-process, start it listening, read its settings, serve static files as it does.
export { buildApp } from './app.ts'
export { closeOnSignals, startServer } from './server.ts'
export { EnvError, parseEnv, type Settings } from './settings/env.ts'
export { sharedMachineSignatureThreads } from './settings/signatures.ts'
export { staticFilesOptions } from './web/web-shell.ts'
