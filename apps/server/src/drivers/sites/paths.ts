import path from 'node:path';

/** The service's web root under the data dir of the local drivers: `<dataDir>/www/<reference>/`. */
export const localWebRoot = (dataDir: string, reference: string) => path.resolve(dataDir, 'www', reference);
