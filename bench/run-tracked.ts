import type { Child, Database } from './processes.ts';

// Whatever happens, the children stop and the databases go.
export const children = new Set<Child>();
export const databases = new Set<Database>();
export async function cleanUp() {
  await Promise.allSettled([...children].map((c) => c.stop()));
  children.clear();
  await Promise.allSettled([...databases].map((d) => d.drop()));
  databases.clear();
}
