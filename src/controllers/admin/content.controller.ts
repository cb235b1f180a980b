import type { Request, RequestHandler, Response } from 'express';
import type { Container } from '../../container';
import { AppError } from '../../http/app-error';
import { formPost, renderForm, type FormRedraw } from '../../http/pages';
import { withNotice } from '../../http/notices';
import { parseOrThrow } from '../../http/validate';
import { CONTENT_ENDPOINTS } from '../../schemas/content.schemas';
import { contentPolicy, type ContentActor } from '../../access/content-policy';
import { CONTENT_STATUSES, type ContentStatus } from '../../models';
import type { ContentInput, ContentListQuery, ContentView } from '../../services/content/content.service';
import type { PageField } from './profile-page-fields';
import { deletePost, formFields, lastValue, pageOf } from './form-input';

const STATUS_LABELS: Record<ContentStatus, string> = { draft: 'Draft', review: 'Review', published: 'Published' };
const OPTIONAL_INPUTS = ['body', 'status', 'collectionId'] as const;
const DELETE_CONFIRM = 'Tick the box to confirm the deletion';

/** The form's fields for the content API's schema: an emptied body or collection is cleared; an empty title stays '' (and is "required"). */
function contentInput(body: unknown): Record<string, unknown> {
  return { ...formFields(body, OPTIONAL_INPUTS, { empty: null }), title: lastValue(body, 'title') ?? '' };
}

function actorOf(req: Request): ContentActor {
  const user = req.user as Express.User;
  return { id: user.id, role: user.role };
}

/**
 * Pages of /admin/content (`create:content`). Every decision about an item (which statuses a role may
 * choose, whether it may edit or delete) is asked of contentPolicy, and the content service enforces it again.
 */
export function createContentPageController({ content, collections }: Container) {
  /** The form's controls; Status offers only what the policy allows this user for this item. */
  async function controls(statuses: ContentStatus[]): Promise<PageField[]> {
    const all = await collections.list();
    return [
      { name: 'title', label: 'Title', type: 'text', required: true, maxlength: 255 },
      { name: 'body', label: 'Body', type: 'textarea', rows: 10 },
      { name: 'status', label: 'Status', type: 'select', options: statuses.map((status) => ({ value: status, label: STATUS_LABELS[status] })) },
      { name: 'collectionId', label: 'Collection', type: 'select', options: [{ value: '', label: 'None' }, ...all.map((c) => ({ value: c.id, label: c.name }))] },
    ];
  }

  const list: RequestHandler = async (req, res) => {
    const actor = actorOf(req);
    const { query, error } = pageOf<ContentListQuery>(CONTENT_ENDPOINTS.list.query, req.query);
    const [result, all] = await Promise.all([content.list(actor, query), collections.list()]);
    const names = new Map(all.map((c) => [c.id, c.name]));
    const items = result.content.map((item) => ({
      ...item,
      collection: item.collectionId ? (names.get(item.collectionId) ?? '') : '',
      mine: item.authorId === actor.id,
      editable: contentPolicy.canEdit(actor, item),
    }));
    res.render('admin/content/list', {
      title: 'Content', items, total: result.total, filters: query, error, statuses: CONTENT_STATUSES, statusLabels: STATUS_LABELS,
      page: query.page, limit: query.limit, pages: Math.max(1, Math.ceil(result.total / query.limit)),
    });
  };

  async function drawNew(req: Request, res: Response, status: number, state: Record<string, unknown>) {
    const actor = actorOf(req);
    const fields = await controls(CONTENT_STATUSES.filter((s) => contentPolicy.canCreate(actor, s)));
    renderForm(res, 'admin/content/form', status, { title: 'New content', action: '/admin/content/new', submit: 'Create', fields, item: null, canDelete: false, ...state });
  }

  const newForm: RequestHandler = (req, res) => drawNew(req, res, 200, { values: { status: 'draft' } });
  const redrawNew: FormRedraw = (req, res, failure) => drawNew(req, res, failure.status, { ...failure, values: req.body as Record<string, unknown> });

  const create = formPost(async (req, res) => {
    const input = (await parseOrThrow(CONTENT_ENDPOINTS.create.body, contentInput(req.body))) as ContentInput;
    const item = await content.create(actorOf(req), input);
    res.redirect(303, withNotice(`/admin/content/${encodeURIComponent(item.id)}/edit`, 'content_created'));
  }, redrawNew);

  async function drawEdit(req: Request, res: Response, status: number, state: Record<string, unknown>) {
    const actor = actorOf(req);
    const item: ContentView = await content.get(actor, req.params.id as string);
    if (!contentPolicy.canEdit(actor, item)) throw AppError.forbidden('You may not edit this item');
    const fields = await controls(CONTENT_STATUSES.filter((s) => contentPolicy.canEdit(actor, item, s)));
    renderForm(res, 'admin/content/form', status, {
      title: `Edit “${item.title}”`, action: `/admin/content/${encodeURIComponent(item.id)}/edit`, submit: 'Save', fields, item,
      canDelete: contentPolicy.canDelete(actor, item), values: { ...item, collectionId: item.collectionId ?? '' }, ...state,
    });
  }

  const editForm: RequestHandler = (req, res) => drawEdit(req, res, 200, {});
  const redrawEdit: FormRedraw = (req, res, failure) => drawEdit(req, res, failure.status, { ...failure, values: req.body as Record<string, unknown> });

  const update = formPost(async (req, res) => {
    const input = (await parseOrThrow(CONTENT_ENDPOINTS.update.body, contentInput(req.body))) as Partial<ContentInput>;
    const item = await content.update(actorOf(req), req.params.id as string, input);
    res.redirect(303, withNotice(`/admin/content/${encodeURIComponent(item.id)}/edit`, 'content_saved'));
  }, redrawEdit);

  const remove = deletePost({ path: '/admin/content', gone: 'content_gone' }, async (req, res) => {
    if (lastValue(req.body, 'confirm') !== 'on') throw AppError.validation({ confirm: DELETE_CONFIRM });
    await content.remove(actorOf(req), req.params.id as string);
    res.redirect(303, withNotice('/admin/content', 'content_deleted'));
  }, (req, res, failure) => drawEdit(req, res, failure.status, { error: failure.errors.confirm ? 'The item was not deleted.' : failure.error, errors: failure.errors }));

  return { list, newForm, create, editForm, update, remove };
}
