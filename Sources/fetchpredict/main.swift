import FetchPredictorCLI

FetchPredict.runAsCommandLineTool()
