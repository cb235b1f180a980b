import { Op } from 'sequelize';
import type { Models, User } from '../../models';
import type { ActivityService } from '../operations/activity.service';
import type { ProfileService } from '../accounts/profile.service';
import type { ImportAudit, ImportRecord } from './user-import';

/** Users read per query: a page of keyset paging, the most the export holds at once. */
const PAGE_SIZE = 500;

/** One user as the export writes it: an import record, with the stored hash (the service's own format once signed in). */
export type ExportRecord = Omit<ImportRecord, 'password'>;

/**
 * Exports every user as NDJSON lines in the import's format (CONTRACT 17): a cursor over the table by id (keyset
 * paging, `WHERE id > last ORDER BY id LIMIT n`), so no page is skipped or repeated however long it runs, and no
 * more than one page is in memory. A user made or changed while it runs may or may not be in it.
 */
export function createUserExport(deps: { models: Models; activity: ActivityService; profiles: Pick<ProfileService, 'definition'> }) {
  const { models, activity } = deps;
  /**
   * Only the profile fields this service is configured with: a value stored under a field since removed from
   * AUTH_CONFIG is not part of the account as the service shows it, and an import with the same configuration
   * would refuse it.
   */
  const configured = new Set(deps.profiles.definition.fields.map((field) => field.name));
  const profileOf = (data: Record<string, unknown> | null | undefined) =>
    Object.fromEntries(Object.entries(data ?? {}).filter(([name]) => configured.has(name)));

  async function* exportUsers(audit: ImportAudit): AsyncGenerator<string> {
    let after: string | null = null;
    let count = 0;
    for (;;) {
      const page: User[] = await models.User.findAll({
        attributes: ['id', 'email', 'username', 'role', 'active', 'emailVerifiedAt', 'firstName', 'lastName', 'createdAt', 'passwordHash'],
        where: after === null ? {} : { id: { [Op.gt]: after } },
        order: [['id', 'ASC']],
        limit: PAGE_SIZE,
      });
      if (page.length === 0) break;
      const profiles = await models.UserProfile.findAll({ attributes: ['userId', 'data'], where: { userId: page.map((user) => user.id) } });
      const dataOf = new Map(profiles.map((profile) => [profile.userId, profile.data as Record<string, unknown> | null]));
      let lines = '';
      for (const user of page) {
        const record: ExportRecord = {
          email: user.email,
          username: user.username,
          role: user.role,
          active: Boolean(user.active),
          emailVerified: user.emailVerifiedAt !== null,
          firstName: user.firstName,
          lastName: user.lastName,
          profile: profileOf(dataOf.get(user.id)),
          createdAt: new Date(user.createdAt).toISOString(),
          ...(user.passwordHash ? { passwordHash: user.passwordHash } : {}),
        };
        lines += `${JSON.stringify(record)}\n`;
      }
      count += page.length;
      after = page[page.length - 1].id;
      yield lines;
    }
    // The one activity row of an export, written once every page is out (an aborted download writes none).
    await activity.record({ action: 'users.exported', userId: audit.actor?.id ?? null, email: audit.actor?.email ?? null, details: { users: count, via: audit.actor ? 'api' : 'cli' } }, audit.context);
  }

  return { exportUsers };
}

export type UserExport = ReturnType<typeof createUserExport>;
