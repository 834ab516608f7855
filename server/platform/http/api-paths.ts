import { type Endpoint, endpointAt } from "../../../shared/api";

/**
 * The answer to a method an endpoint does not take (shared/api.ts lists each one's methods): 405
 * with `Allow`; null when the path is no endpoint or takes this method.
 */
export function methodNotAllowed(path: string, method: string, headers: Record<string, string> = {}): Response | null {
  const endpoint: Endpoint | undefined = endpointAt(path);
  if (endpoint === undefined || endpoint.methods.some((m) => m === method)) return null;
  const [only] = endpoint.methods;
  const error = endpoint.methods.length === 1 ? `Method not allowed: use ${only}` : "Method not allowed";
  return Response.json({ error }, { status: 405, headers: { ...headers, allow: endpoint.methods.join(", ") } });
}
