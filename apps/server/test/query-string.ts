/** A query string of these parameters, a list as the parameter repeated; undefined ones left out. */
export const qs = (params: Record<string, string | number | string[] | undefined>) => {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) u.append(k, String(item));
  }
  return u.toString();
};
