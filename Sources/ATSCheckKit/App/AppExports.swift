// `atscheck app` reads bundles through the AppBundle module: its values (AppInfo, LinkedLibrary,
// HarvestedEndpoint, …) come to the CLI through the facade, like the policy and model types.
@_exported import AppBundle
