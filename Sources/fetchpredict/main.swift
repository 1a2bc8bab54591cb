import FetchPredictorCLI

FetchPredict.main()
