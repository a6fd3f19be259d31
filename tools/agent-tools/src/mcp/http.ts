export async function serveHttpCommand(..._: unknown[]): Promise<number> { throw new Error("not yet"); }
