/**
 * What every endpoint handler receives and returns, and the brand checks they share
 * (docs/api.md §5: membership of the brand; editor access for some writes).
 */
import { errorsShape, typedShape } from '../http-error.js';
import { brandIdParam, type RequestInput } from '../params.js';
import type { SimulatorOptionsResolved } from '../resolve-options.js';
import type { BrandState, World } from '../world.js';

export interface HandlerContext {
  readonly world: World;
  readonly input: RequestInput;
  readonly options: SimulatorOptionsResolved;
  readonly now: number;
}

export interface HandlerResult {
  status: number;
  body: unknown;
}

export type Handler = (ctx: HandlerContext) => HandlerResult;

export const ok = (body: unknown, status = 200): HandlerResult => ({ status, body });

/** The brand named by `brand_id`: 400 when malformed, 404 when the key has no such brand. */
export function brandOf(ctx: HandlerContext): BrandState {
  const id = brandIdParam(ctx.input);
  const brand = ctx.world.brands.get(id);
  if (!brand) {
    throw errorsShape(404, 'Brand not found', [
      { param: 'brand_id', message: `No brand ${id} for this API key` },
    ]);
  }
  return brand;
}

/** Brand writes, the verification ping and search submission need owner or editor access. */
export function requireEditor(brand: BrandState, action: string): void {
  if (brand.profile.role === 'viewer') {
    throw typedShape(
      403,
      'permission_error',
      'insufficient_role',
      `${action} requires editor access to ${brand.profile.name}; your role is viewer.`,
      'brand_id',
    );
  }
}
