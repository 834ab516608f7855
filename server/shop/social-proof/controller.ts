import { Elysia } from "elysia";
import { ENDPOINTS } from "../../../shared/api";
import type { SocialProofResponse } from "../../../shared/schemas/social-proof";
import type { AppDeps } from "../../deps";
import { requestContext } from "../../platform/http/context";
import { approvedPlaceKeys, loadPlaceNames, type PlaceNames } from "./places";
import { recentPurchases } from "./service";

/** GET /api/social-proof (docs/decisions/004-social-proof-and-chat-grounding.md): recent real paid orders for the bottom-left toast. */
export function socialProofController(deps: AppDeps) {
  // The list of places is read on the first request, not at start-up: most processes never need it.
  let places: PlaceNames | undefined;
  return new Elysia({ name: "social-proof" }).use(requestContext(deps.config)).get(ENDPOINTS.socialProof.path, () => {
    places ??= loadPlaceNames();
    const body: SocialProofResponse = { entries: recentPurchases(deps.db, deps.now(), deps.config, places, approvedPlaceKeys(deps.db)) };
    // Ages change every minute and a refund removes an entry: never cache.
    return Response.json(body, { headers: { "cache-control": "no-store" } });
  });
}
