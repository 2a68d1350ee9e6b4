/**
 * Personal data: the kinds of data requests the admins' log records, shared by the API and the
 * back-office's log screen.
 */

/** What a person asked of their data: a copy of it, its deletion, or a grievance about it. */
export const DATA_REQUEST_KINDS = ['export', 'deletion', 'grievance'] as const;
export type DataRequestKind = (typeof DATA_REQUEST_KINDS)[number];

/** Who took a step of a data request: the person, an admin (named by id), or a scheduled job. */
export const DATA_REQUEST_ACTORS = ['person', 'admin', 'system'] as const;
export type DataRequestActor = (typeof DATA_REQUEST_ACTORS)[number];
