import type { RequestHandler } from 'express';
import type { Container } from '../../container';
import { ACTIVITY_ENDPOINTS } from '../../schemas/activity.schemas';
import { ACTIVITY_ACTIONS, type ActivityFilter } from '../../services/operations/activity.service';
import { pageOf } from './form-input';

/** `/admin/activity` (`view:activity-logs`): the activity service's list, with the API's own query rules. */
export function createActivityPageController({ activity }: Container) {
  const list: RequestHandler = async (req, res) => {
    const { query, error } = pageOf<ActivityFilter>(ACTIVITY_ENDPOINTS.list.query, req.query);
    const result = await activity.list(query);
    res.render('admin/activity', {
      title: 'Activity', ...result, filters: query, actions: ACTIVITY_ACTIONS, error,
      page: query.page, limit: query.limit, pages: Math.max(1, Math.ceil(result.total / query.limit)),
    });
  };

  return { list };
}
