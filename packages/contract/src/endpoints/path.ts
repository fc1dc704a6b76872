/** The concrete path of a call under API_BASE, parameters encoded. */
export function pathOf(e: { path: string }, params: Record<string, string | number> = {}): string {
  return e.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${e.path}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
