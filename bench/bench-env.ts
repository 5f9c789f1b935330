/**
 * The environment the bench's processes run in. A machine behind a TLS-inspecting proxy sets
 * NODE_EXTRA_CA_CERTS for npm's sake, and Node 20 then reads and parses the whole certificate bundle
 * at every start (docs/benchmarks.md says by how much). Nothing the bench runs talks TLS (the model servers are plain HTTP on
 * 127.0.0.1) and a person's shell rarely sets it; left in, every figure that starts a Node process
 * — relevo, its hooks, the agents and the baselines alike — would measure the machine's proxy.
 * Removed from the bench's own environment before anything starts, so every child inherits that.
 * The machine line of the report says when it was set.
 */
export function withoutProxyCa(): boolean {
  const had = process.env.NODE_EXTRA_CA_CERTS !== undefined;
  delete process.env.NODE_EXTRA_CA_CERTS;
  return had;
}
