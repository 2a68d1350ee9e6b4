import { SetMetadata } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/**
 * What the HTTP infrastructure needs to know of who is asking, declared here and provided by the
 * identity feature (its access guard and sessions), so the infrastructure imports no feature.
 */

/** The metadata key of routes open to visitors; identity's access guard reads it. */
export const PUBLIC_ROUTE = 'offers:public';
/** Open to visitors (outside the role areas). Everything else needs a session. */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

/** The part of a signed-in account the infrastructure reads (identity's access guard sets it). */
export interface RequestAccount {
  role: string;
  id: number;
}

export type RequestWithAccount = FastifyRequest & { account?: RequestAccount };

/**
 * Lets an admin through to a page outside Nest's router (the queue dashboard), or throws the
 * access guard's own 401 or 403.
 */
export interface AdminGate {
  admit(request: FastifyRequest): Promise<void>;
}

export const ADMIN_GATE = Symbol('ADMIN_GATE');
