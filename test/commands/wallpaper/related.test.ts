import { describe, expect, it } from 'vitest';
import { listTag, moreLikeThis } from '../../../commands/wallpaper/related.js';
import { en } from '../../../src/i18n/en.js';
import { componentContext } from '../../helpers/command-contexts.js';
import { pages, searchService, stubApp } from '../../helpers/wallpaper-fixtures.js';

describe('listings opened from a wallpaper', () => {
  it('"More like this" searches like:<id>, most similar first', async () => {
    const service = searchService(pages([2]));
    await moreLikeThis(componentContext('wp:labc123'), stubApp(service), 'abc123');
    expect(service.search).toHaveBeenCalledWith(expect.objectContaining({ query: 'like:abc123', sorting: 'relevance' }), {});
  });

  it('a tag picked lists that exact tag, newest first; a value that is no tag is refused on the side', async () => {
    const service = searchService(pages([2]));
    await listTag(componentContext('wp:tabc123', { values: ['37:Nature'] }), stubApp(service));
    expect(service.search).toHaveBeenCalledWith(expect.objectContaining({ query: 'id:37', sorting: 'date_added' }), {});
    expect(await listTag(componentContext('wp:tabc123', { values: ['nature'] }), stubApp(service))).toEqual({ reply: { content: en.wallpaper.unknownPager, ephemeral: true } });
    expect(service.search).toHaveBeenCalledOnce();
  });
});
