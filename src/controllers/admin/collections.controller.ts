import type { Request, RequestHandler, Response } from 'express';
import type { Container } from '../../container';
import { AppError } from '../../http/app-error';
import { formPost, renderForm, type FormRedraw } from '../../http/pages';
import { withNotice } from '../../http/notices';
import { parseOrThrow } from '../../http/validate';
import { COLLECTIONS_ENDPOINTS } from '../../schemas/collections.schemas';
import { COLLECTION_MESSAGES, type CollectionInput } from '../../services/content/collection.service';
import type { PageField } from './profile-page-fields';
import { deletePost, formFields, lastValue } from './form-input';

const FIELDS: readonly PageField[] = [
  { name: 'name', label: 'Name', type: 'text', required: true, maxlength: 100 },
  { name: 'description', label: 'Description', type: 'textarea', maxlength: 10_000 },
];
const DELETE_CONFIRM = 'Tick the box to confirm the deletion';

/** The form's fields for the collections API's schema: an emptied description is cleared; an empty name stays '' (and is "required"). */
function collectionInput(body: unknown): Record<string, unknown> {
  return { ...formFields(body, ['description'], { empty: null }), name: lastValue(body, 'name') ?? '' };
}

/** A taken name is a conflict about the Name field. */
function nameTaken(err: unknown): never {
  if (err instanceof AppError && err.message === COLLECTION_MESSAGES.duplicate) throw new AppError(409, err.message, { errors: { name: err.message } });
  throw err;
}

/** Pages of /admin/collections (`manage:collections`): the same collection service as /api/collections. */
export function createCollectionsPageController({ collections }: Container) {
  async function drawList(res: Response, status: number, state: Record<string, unknown>) {
    renderForm(res, 'admin/collections/list', status, { title: 'Collections', collections: await collections.list(), fields: FIELDS, ...state });
  }

  const list: RequestHandler = (_req, res) => drawList(res, 200, {});
  const redrawList: FormRedraw = (req, res, failure) => drawList(res, failure.status, { ...failure, values: req.body as Record<string, unknown> });

  const create = formPost(async (req, res) => {
    const input = (await parseOrThrow(COLLECTIONS_ENDPOINTS.create.body, collectionInput(req.body))) as CollectionInput;
    await collections.create(input).catch(nameTaken);
    res.redirect(303, withNotice('/admin/collections', 'collection_created'));
  }, redrawList);

  async function drawEdit(req: Request, res: Response, status: number, state: Record<string, unknown>) {
    const collection = await collections.get(req.params.id as string);
    renderForm(res, 'admin/collections/edit', status, { title: `Edit collection ${collection.name}`, collection, fields: FIELDS, values: { ...collection }, ...state });
  }

  const editForm: RequestHandler = (req, res) => drawEdit(req, res, 200, {});
  const redrawEdit: FormRedraw = (req, res, failure) => drawEdit(req, res, failure.status, { ...failure, values: req.body as Record<string, unknown> });

  const update = formPost(async (req, res) => {
    const input = (await parseOrThrow(COLLECTIONS_ENDPOINTS.update.body, collectionInput(req.body))) as Partial<CollectionInput>;
    await collections.update(req.params.id as string, input).catch(nameTaken);
    res.redirect(303, withNotice('/admin/collections', 'collection_saved'));
  }, redrawEdit);

  const remove = deletePost({ path: '/admin/collections', gone: 'collection_gone' }, async (req, res) => {
    if (lastValue(req.body, 'confirm') !== 'on') throw AppError.validation({ confirm: DELETE_CONFIRM });
    const collection = await collections.get(req.params.id as string);
    await collections.remove(collection.id);
    res.redirect(303, withNotice('/admin/collections', 'collection_deleted'));
  }, (req, res, failure) => drawEdit(req, res, failure.status, { error: 'The collection was not deleted.', errors: failure.errors }));

  return { list, create, editForm, update, remove };
}
