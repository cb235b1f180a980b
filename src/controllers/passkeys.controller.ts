import type { Request, RequestHandler } from 'express';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Container } from '../container';
import { AppError } from '../http/app-error';
import { requestContext } from '../http/request-context';
import { PASSKEY_MESSAGES } from '../services/sign-in-methods/passkey.service';
import type { PasskeyLoginOptionsBody, PasskeyRegisterBody } from '../schemas/passkeys.schemas';

/** Handlers of CONTRACT 10's passkey endpoints; the route schemas have parsed every body and id. */
export function createPasskeysController({ passkeys, secondFactor }: Container) {
  const self = (req: Request) => req.user as Express.User;

  /** First on every passkey route: with an IP-address BASE_URL there is no relying party (503). */
  const available: RequestHandler = (_req, _res, next) => {
    next(passkeys.available ? undefined : new AppError(503, PASSKEY_MESSAGES.unavailable));
  };

  const registerOptions: RequestHandler = async (req, res) => {
    res.json(await passkeys.registrationOptions(self(req)));
  };

  const registerVerify: RequestHandler = async (req, res) => {
    const { response, name } = req.body as PasskeyRegisterBody;
    const registration = { ...response, clientExtensionResults: response.clientExtensionResults ?? {} } as RegistrationResponseJSON;
    const passkey = await passkeys.register(self(req), registration, name, requestContext(req));
    res.status(201).json({ passkey });
  };

  const list: RequestHandler = async (req, res) => {
    res.json({ passkeys: await passkeys.list(self(req).id) });
  };

  const remove: RequestHandler = async (req, res) => {
    if (!(await passkeys.remove(self(req), String(req.params.id), requestContext(req)))) throw AppError.notFound(PASSKEY_MESSAGES.notFound);
    res.status(204).end();
  };

  const loginOptions: RequestHandler = async (req, res) => {
    res.json(await passkeys.loginOptions((req.body as PasskeyLoginOptionsBody).email));
  };

  /** Options for the second step: the challenge (body, else the /auth/2fa page's cookie) must be live and offer `passkey`. */
  const secondStepOptions: RequestHandler = async (req, res) => {
    const pending = await secondFactor.pending(secondFactor.challengeOf(req));
    if (!pending || !pending.methods.includes('passkey')) throw AppError.unauthorized(PASSKEY_MESSAGES.signInFailed);
    res.json(await passkeys.secondStepOptions(pending.userId));
  };

  return { available, registerOptions, registerVerify, list, remove, loginOptions, secondStepOptions };
}
