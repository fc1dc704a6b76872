import path from 'node:path';

/** A hosting service's web root on the machine that serves it: the configured root and the item's reference. */
export const webRootOf = (root: string, reference: string) => path.posix.join(root, reference);
