"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createPluginRegistry = createPluginRegistry;
const app_error_1 = require("../http/app-error");
const validate_1 = require("../http/validate");
const transaction_retry_1 = require("../db/transaction-retry");
const index_1 = require("./index");
const plugin_definition_1 = require("./plugin-definition");
const MESSAGES = { unknown: 'Plugin not found' };
function isPlainObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
/** `base` with `patch` laid over it: objects merge key by key, `null` deletes, anything else replaces. */
function deepMerge(base, patch) {
    const result = { ...base };
    for (const [key, value] of Object.entries(patch)) {
        if (value === null)
            delete result[key];
        else if (isPlainObject(value) && isPlainObject(result[key]))
            result[key] = deepMerge(result[key], value);
        else
            result[key] = value;
    }
    return result;
}
function getPath(settings, path) {
    let node = settings;
    for (const key of path)
        node = isPlainObject(node) ? node[key] : undefined;
    return node;
}
/** Sets a value at a path of an object tree (a copy is made by the callers, which own `settings`). */
function setPath(settings, path, value) {
    let node = settings;
    for (const key of path.slice(0, -1)) {
        if (!isPlainObject(node[key]))
            return;
        node = node[key];
    }
    const last = path[path.length - 1];
    if (value === undefined)
        delete node[last];
    else
        node[last] = value;
}
function urlPassword(value) {
    if (typeof value !== 'string' || !URL.canParse(value))
        return undefined;
    const password = new URL(value).password;
    return password ? decodeURIComponent(password) : undefined;
}
function maskSecret(value, kind) {
    if (kind === 'value')
        return typeof value === 'string' && value !== '' ? plugin_definition_1.SECRET_MASK : value;
    if (urlPassword(value) === undefined)
        return value;
    const url = new URL(value);
    url.password = plugin_definition_1.SECRET_MASK;
    return url.toString();
}
/** A mask sent back in an update means "keep what is stored"; this puts the stored secret back. */
function restoreSecret(incoming, stored, kind) {
    if (kind === 'value')
        return incoming === plugin_definition_1.SECRET_MASK ? stored : incoming;
    if (urlPassword(incoming) !== plugin_definition_1.SECRET_MASK)
        return incoming;
    const url = new URL(incoming);
    url.password = urlPassword(stored) === undefined ? '' : encodeURIComponent(urlPassword(stored));
    return url.toString();
}
/** Dot paths of the leaves that differ between two settings trees (names only, never values). */
function changedPaths(before, after, prefix = '') {
    if (isPlainObject(before) && isPlainObject(after)) {
        const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
        return [...keys].flatMap((key) => changedPaths(before[key], after[key], prefix ? `${prefix}.${key}` : key));
    }
    return JSON.stringify(before) === JSON.stringify(after) ? [] : [prefix];
}
/**
 * The plugins registry: each plugin's active flag and settings (the `plugins` table; a missing row
 * means inactive with defaults). Stored settings are laid over the defaults; updates are validated
 * as the merged whole, so a range error names the field whatever was sent.
 */
function createPluginRegistry(deps) {
    const { models, activity } = deps;
    const definitions = new Map((deps.plugins ?? index_1.PLUGINS).map((plugin) => [plugin.name, plugin]));
    function definitionOf(name) {
        const definition = definitions.get(name);
        if (!definition)
            throw app_error_1.AppError.notFound(MESSAGES.unknown);
        return definition;
    }
    /**
     * Stored settings cleaned and resolved: keys that no longer validate (edited by hand, or from an older
     * version) are dropped one by one, so they fall back to their defaults while the rest of the stored
     * settings (secrets included) stay in force. `stored` is what remains; `settings` the effective whole.
     */
    function resolve(definition, raw) {
        let stored = raw;
        for (let round = 0; round < 10; round++) {
            const parsed = definition.settings.safeParse(stored);
            if (parsed.success)
                return { stored, settings: parsed.data };
            stored = structuredClone(stored);
            for (const issue of parsed.error.issues) {
                const path = issue.path.map(String);
                const keys = issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...path, key]) : [path];
                for (const key of keys)
                    if (key.length > 0)
                        setPath(stored, key, undefined);
            }
        }
        return { stored: {}, settings: definition.settings.parse({}) };
    }
    function effective(definition, raw) {
        return resolve(definition, raw).settings;
    }
    function mask(definition, settings) {
        const masked = structuredClone(settings);
        for (const secret of definition.secrets) {
            const value = getPath(masked, secret.path);
            if (value !== undefined)
                setPath(masked, secret.path, maskSecret(value, secret.kind));
        }
        return masked;
    }
    async function load(name) {
        const definition = definitionOf(name);
        const row = await models.Plugin.findByPk(name);
        return { definition, active: row?.active ?? false, settings: effective(definition, row?.settings ?? {}) };
    }
    /** Every plugin, secrets masked. */
    async function list() {
        const rows = await models.Plugin.findAll({ where: { name: [...definitions.keys()] } });
        const byName = new Map(rows.map((row) => [row.name, row]));
        return [...definitions.values()].map((definition) => {
            const row = byName.get(definition.name);
            return { name: definition.name, active: row?.active ?? false, settings: mask(definition, effective(definition, row?.settings ?? {})) };
        });
    }
    /** One plugin, secrets masked; 404 for an unknown name. */
    async function get(name) {
        const { definition, active, settings } = await load(name);
        return { name, active, settings: mask(definition, settings) };
    }
    /**
     * Changes the active flag and/or merges settings, validating the merged result (400 naming the
     * field, nothing written). Masked secrets sent back keep the stored secret.
     */
    async function update(name, change, audit) {
        const definition = definitionOf(name);
        const result = await (0, transaction_retry_1.transactionWithRetry)(models.Plugin.sequelize, async (transaction) => {
            const row = await models.Plugin.findByPk(name, { transaction, lock: true });
            const { stored, settings: before } = resolve(definition, row?.settings ?? {});
            const incoming = structuredClone(change.settings ?? {});
            for (const secret of definition.secrets) {
                const value = getPath(incoming, secret.path);
                if (value !== undefined && value !== null)
                    setPath(incoming, secret.path, restoreSecret(value, getPath(stored, secret.path), secret.kind));
            }
            const nextStored = deepMerge(stored, incoming);
            const parsed = definition.settings.safeParse(nextStored);
            if (!parsed.success)
                throw app_error_1.AppError.validation((0, validate_1.fieldErrors)(parsed.error));
            const activeBefore = row?.active ?? false;
            const activeAfter = change.active ?? activeBefore;
            if (row) {
                row.active = activeAfter;
                row.settings = nextStored;
                row.changed('settings', true);
                await row.save({ transaction });
            }
            else {
                await models.Plugin.create({ name, active: activeAfter, settings: nextStored }, { transaction });
            }
            const after = parsed.data;
            return { activeBefore, activeAfter, before, after };
        }, { retryOnUniqueViolation: true });
        if (audit) {
            const details = { plugin: name, changedSettings: changedPaths(result.before, result.after) };
            if (result.activeBefore !== result.activeAfter)
                details.active = { from: result.activeBefore, to: result.activeAfter };
            await activity.record({ action: 'plugin.updated', userId: audit.actor.id, email: audit.actor.email, details }, audit.context);
        }
        return { name, active: result.activeAfter, settings: mask(definition, result.after) };
    }
    /** Whether the plugin is switched on (false for a plugin never configured). */
    async function isActive(name) {
        return (await load(name)).active;
    }
    /** The plugin's effective settings, secrets included: for the service's own use, never for answers. */
    async function settingsOf(name) {
        return (await load(name)).settings;
    }
    return { names: [...definitions.keys()], list, get, update, isActive, settingsOf };
}
//# sourceMappingURL=plugin-registry.js.map