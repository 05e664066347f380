/// <reference lib="dom" />
/**
 * A minimal MCP Apps host page built on the ext-apps host bridge (`AppBridge`), as a chat client embeds
 * a view: an outer sandbox iframe on another origin (the sandbox proxy) whose inner frame runs the UI
 * resource's HTML; tool calls of the view are relayed to the host's MCP connection (here the test's
 * MCP SDK client, exposed to the page as `hostCallTool`).
 */
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/client';

export interface RenderRequest {
  html: string;
  csp: Record<string, string[]> | undefined;
  sandboxUrl: string;
  theme: 'light' | 'dark';
  toolInput: Record<string, unknown>;
  toolResult: CallToolResult;
}

interface HostWindow {
  hostCallTool(params: CallToolRequest['params']): Promise<CallToolResult>;
  hostModelContext(text: string): Promise<void>;
  renderView(request: RenderRequest): Promise<void>;
}

const host = window as unknown as HostWindow;

host.renderView = async (request) => {
  const iframe = document.createElement('iframe');
  iframe.title = 'MCP App view';
  iframe.setAttribute('sandbox', 'allow-scripts allow-same-origin');
  document.getElementById('conversation')!.append(iframe);
  const bridge = new AppBridge(
    null,
    { name: 'Paper Perps test host', version: '1.0.0' },
    { serverTools: {}, logging: {}, updateModelContext: { text: {} } },
    {
      hostContext: {
        theme: request.theme,
        platform: 'web',
        displayMode: 'inline',
        availableDisplayModes: ['inline'],
        locale: 'en-US',
        containerDimensions: { maxHeight: 6000 },
      },
    },
  );
  bridge.oncalltool = (params) => host.hostCallTool(params);
  bridge.onupdatemodelcontext = async (params) => {
    const text = (params.content ?? []).map((block: { type: string; text?: string }) => block.text ?? '').join('\n');
    await host.hostModelContext(text);
    return {};
  };
  bridge.addEventListener('sizechange', ({ height }) => {
    if (height !== undefined) iframe.style.height = `${height}px`;
  });
  bridge.addEventListener(
    'sandboxready',
    () => void bridge.sendSandboxResourceReady({ html: request.html, csp: request.csp }),
  );
  bridge.addEventListener('initialized', () => {
    void bridge.sendToolInput({ arguments: request.toolInput }).then(() => bridge.sendToolResult(request.toolResult));
  });
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  iframe.src = request.sandboxUrl;
};
