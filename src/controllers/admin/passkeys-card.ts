import type { Request, RequestHandler } from 'express';
import type { Container } from '../../container';
import { adminAudit } from '../../http/request-context';
import { withNotice } from '../../http/notices';
import type { PasskeyView } from '../../services/sign-in-methods/passkey.service';
import { accountPage } from '../../http/account-sections';

/** What views/admin/partials/passkeys.ejs draws: nothing at all while passkeys are unavailable (an IP-address BASE_URL). */
export interface PasskeysCard {
  available: boolean;
  list: PasskeyView[];
}

/** The "Passkeys" card of /admin/profile/security (CONTRACT 10): its data for the page, and its Remove form's handler. */
export function createPasskeysCard({ passkeys }: Container) {
  const self = (req: Request) => req.user as Express.User;

  async function view(userId: string): Promise<PasskeysCard> {
    return { available: passkeys.available, list: passkeys.available ? await passkeys.list(userId) : [] };
  }

  /** "Remove" beside a passkey (a step-up route: the router asks for a recent sign-in first). */
  const remove: RequestHandler = async (req, res) => {
    const removed = passkeys.available && (await passkeys.remove(self(req), String(req.params.id), adminAudit(req).context));
    res.redirect(303, withNotice(accountPage('security'), removed ? 'passkey_removed' : 'passkey_gone'));
  };

  return { view, remove };
}
