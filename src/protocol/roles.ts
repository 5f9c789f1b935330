export const ROLES = ['planner', 'builder'] as const;
export type Role = (typeof ROLES)[number];

export const LANGS = ['es', 'en'] as const;
export type Lang = (typeof LANGS)[number];

/** A role's name, checked. */
export function isRole(name: string): name is Role {
  return (ROLES as readonly string[]).includes(name);
}

/** The other side of the relay. */
export function peerOf(role: Role): Role {
  return role === 'planner' ? 'builder' : 'planner';
}
