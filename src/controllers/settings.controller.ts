import type { RequestHandler } from 'express';
import type { Container } from '../container';
import { adminAudit } from '../http/request-context';
import type { SecuritySettingsUpdate } from '../services/operations/settings.service';

/** Handlers of the CONTRACT 4 security settings; the service stores the change and records its diff. */
export function createSettingsController({ settings }: Container) {
  const getSecurity: RequestHandler = async (_req, res) => {
    res.json(await settings.getSecuritySettings());
  };

  const updateSecurity: RequestHandler = async (req, res) => {
    res.json(await settings.updateSecuritySettings(req.body as SecuritySettingsUpdate, adminAudit(req)));
  };

  return { getSecurity, updateSecurity };
}
