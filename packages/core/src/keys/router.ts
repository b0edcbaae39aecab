import { router } from '../trpc.ts';
import { createKey } from './create-key.ts';
import { getOwnKey } from './get-own-key.ts';
import { listKeys } from './list-keys.ts';
import { revokeKey } from './revoke-key.ts';
import { rotateKey } from './rotate-key.ts';

export const keysRouter = router({
  create: createKey,
  list: listKeys,
  self: getOwnKey,
  revoke: revokeKey,
  rotate: rotateKey,
});
