import {
  type ClientCapabilities,
  CodeActionKind,
  DiagnosticTag,
  MarkupKind,
  PrepareSupportDefaultBehavior,
  type SymbolKind,
} from 'vscode-languageserver-protocol';

const SYMBOL_KINDS = Array.from({ length: 26 }, (_, i) => (i + 1) as SymbolKind);

/**
 * What this client tells servers it can do. Pull diagnostics are declared with dynamic registration because
 * pyright only offers them that way. Edits a server sends back (`applyEdit`) are taken only while lsp_fix runs
 * one of its commands.
 */
export const CLIENT_CAPABILITIES: ClientCapabilities = {
  general: { positionEncodings: ['utf-16'] },
  window: { workDoneProgress: true, showDocument: { support: false } },
  workspace: {
    // Taken only while lsp_fix runs a command of the server, through the same all-or-nothing path as edits.
    applyEdit: true,
    workspaceEdit: {
      documentChanges: true,
      resourceOperations: ['create', 'rename', 'delete'],
      failureHandling: 'abort',
    },
    didChangeConfiguration: { dynamicRegistration: true },
    didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: false },
    symbol: { dynamicRegistration: false, symbolKind: { valueSet: SYMBOL_KINDS } },
    executeCommand: { dynamicRegistration: false },
    configuration: true,
    workspaceFolders: true,
    diagnostics: { refreshSupport: true },
  },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: true, willSave: false, willSaveWaitUntil: false },
    hover: { dynamicRegistration: false, contentFormat: [MarkupKind.Markdown, MarkupKind.PlainText] },
    definition: { dynamicRegistration: false, linkSupport: true },
    typeDefinition: { dynamicRegistration: false, linkSupport: true },
    implementation: { dynamicRegistration: false, linkSupport: true },
    declaration: { dynamicRegistration: false, linkSupport: true },
    references: { dynamicRegistration: false },
    callHierarchy: { dynamicRegistration: false },
    documentSymbol: {
      dynamicRegistration: false,
      hierarchicalDocumentSymbolSupport: true,
      symbolKind: { valueSet: SYMBOL_KINDS },
    },
    codeAction: {
      dynamicRegistration: false,
      isPreferredSupport: true,
      codeActionLiteralSupport: {
        codeActionKind: {
          valueSet: [
            CodeActionKind.Empty,
            CodeActionKind.QuickFix,
            CodeActionKind.Refactor,
            CodeActionKind.RefactorExtract,
            CodeActionKind.RefactorInline,
            CodeActionKind.RefactorRewrite,
            CodeActionKind.Source,
            CodeActionKind.SourceOrganizeImports,
            CodeActionKind.SourceFixAll,
          ],
        },
      },
    },
    rename: {
      dynamicRegistration: false,
      prepareSupport: true,
      prepareSupportDefaultBehavior: PrepareSupportDefaultBehavior.Identifier,
    },
    publishDiagnostics: {
      versionSupport: true,
      relatedInformation: false,
      codeDescriptionSupport: true,
      tagSupport: { valueSet: [DiagnosticTag.Unnecessary, DiagnosticTag.Deprecated] },
    },
    diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
  },
};
